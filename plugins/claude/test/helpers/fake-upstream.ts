import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../../test/helpers/start-gateway';

/** One request as the fake upstream received it, bytes included. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: unknown;
}

/** What the fake upstream answers: a status, headers and the body as chunks (written one by one). */
export interface FakeReply {
  status: number;
  headers?: Record<string, string>;
  body: Buffer | string | Array<Buffer | string>;
}

export type Responder = (request: SeenRequest) => FakeReply | Promise<FakeReply>;

export interface FakeUpstream {
  url: string;
  seen: SeenRequest[];
  /** Answers the next requests in order; when the queue is empty, `fallback` answers (default 500). */
  queue(...responders: Array<Responder | FakeReply>): void;
  fallback(responder: Responder | FakeReply): void;
  reset(): void;
  close(): Promise<void>;
}

function parse(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A loopback HTTP server standing in for api.anthropic.com, recording exact request bytes. */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const seen: SeenRequest[] = [];
  let pending: Array<Responder | FakeReply> = [];
  let fallback: Responder | FakeReply = { status: 500, body: '{"type":"error","error":{"type":"api_error","message":"no reply queued"}}' };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const request: SeenRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, raw, json: parse(raw) };
      seen.push(request);
      const next = pending.shift() ?? fallback;
      Promise.resolve(typeof next === 'function' ? next(request) : next).then(
        async (reply) => {
          res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
          const parts = Array.isArray(reply.body) ? reply.body : [reply.body];
          for (const part of parts) {
            res.write(part);
            await new Promise((resolve) => setImmediate(resolve));
          }
          res.end();
        },
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    queue: (...responders) => void pending.push(...responders),
    fallback: (responder) => void (fallback = responder),
    reset() {
      seen.length = 0;
      pending = [];
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Cuts bytes into uneven chunks (sizes cycle through n, 1, 3n) so the gateway meets split SSE events. */
export function unevenChunks(bytes: Buffer, size = 7): Buffer[] {
  const out: Buffer[] = [];
  const sizes = [size, 1, size * 3];
  for (let offset = 0, i = 0; offset < bytes.length; i += 1) {
    out.push(bytes.subarray(offset, offset + sizes[i % sizes.length]));
    offset += sizes[i % sizes.length];
  }
  return out;
}

export const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };

/** One Anthropic SSE event: `event: {name}` and its data, `type` included. */
export function messagesEvent(name: string, data: Record<string, unknown>): string {
  return `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
}

/** The gateway of a describe block: one claude platform with `keys` on a fake upstream, and an OpenAI SDK client on it. */
export interface ClaudeOnFakeUpstream {
  upstream: FakeUpstream;
  gw: RunningGateway;
  openai: OpenAI;
}

/**
 * Starts them before the block's tests, stops them after, and clears what the upstream saw before each test. `options`:
 * more of the platform's options (`promptCaching: false`, …).
 */
export function useClaudeOnFakeUpstream(keys: readonly string[], options: Record<string, unknown> = {}): ClaudeOnFakeUpstream {
  const env = {} as ClaudeOnFakeUpstream;
  before(async () => {
    env.upstream = await startFakeUpstream();
    env.gw = await startGateway({ claude: { plugin: 'claude', baseUrl: env.upstream.url, credentials: keys.map((apiKey) => ({ apiKey })), ...options } });
    env.openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/claude/v1`, maxRetries: 0 });
  });
  after(async () => {
    await env.gw.close();
    await env.upstream.close();
  });
  beforeEach(() => env.upstream.reset());
  return env;
}
