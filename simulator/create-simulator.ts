import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleAnthropic } from './anthropic';
import { createClaudeAiOAuth } from './anthropic-oauth';
import { handleGemini } from './gemini';
import { parseJsonBody, queryRecord, readBody, sendJson, sleep } from './http-util';
import { handleOpenAi } from './openai';
import type { Exchange, RecordedRequest, Simulator, SimulatorOptions, SimulatorSettings, Vendor, VendorHandler } from './types';

export type { RecordedRequest, Simulator, SimulatorOptions } from './types';

/** Enough history for any test, bounded so that a benchmark does not grow memory. */
const MAX_RECORDED = 1000;
/** Longer than any client agent's idle timeout, so a reused socket is never closed under a request. */
const KEEP_ALIVE_MS = 65_000;

/** Stateless vendors; Anthropic and claude.ai share the per-simulator OAuth state and are added in startSimulator. */
const HANDLERS = { gemini: handleGemini, openai: handleOpenAi } satisfies Partial<Record<Vendor, VendorHandler>>;
const PREFIX = /^\/(anthropic|gemini|openai|claude-ai)(\/.*)?$/;

function baseUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Starts the fake upstream: Anthropic under /anthropic, Gemini under /gemini, OpenAI under /openai, one port. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const settings: SimulatorSettings = { chunks: options.chunks ?? 3, chunkDelayMs: options.chunkDelayMs ?? 0 };
  const latencyMs = options.latencyMs ?? 0;
  const host = options.host ?? '127.0.0.1';
  const requests: RecordedRequest[] = [];
  const events = new EventEmitter();
  const state = new Map<string, unknown>();
  let counter = 0;
  let closing = false;
  const claudeAi = createClaudeAiOAuth({ accessTokenTtlSeconds: options.oauthTokenTtlSeconds ?? 3600 });
  const handlers: Record<Vendor, VendorHandler> = {
    ...HANDLERS,
    anthropic: async (exchange) => {
      if (!claudeAi.refuseAnthropicBearer(exchange)) await handleAnthropic(exchange);
    },
    'claude-ai': claudeAi.handle,
  };

  function record(entry: RecordedRequest): void {
    requests.push(entry);
    // One over at a time: shift() drops it without copying the rest, where splice moved all 1000 per request.
    if (requests.length > MAX_RECORDED) requests.shift();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const match = PREFIX.exec(url.pathname);
    // Made when a handler first asks for the signal (a paced stream, a delay): most answers never do, and an
    // AbortController per request cost ~5% of the simulator's CPU under load.
    let controller: AbortController | undefined;
    let clientLeft = false;
    const signal = (): AbortSignal => {
      controller ??= new AbortController();
      if (clientLeft) controller.abort();
      return controller.signal;
    };
    let entry: RecordedRequest | undefined;
    res.on('close', () => {
      // Only a client that left mid-answer aborts the handler: an abort on every answer made a DOMException (with its
      // stack) per request, a tenth of the simulator's CPU under load.
      if (!res.writableFinished) {
        clientLeft = true;
        controller?.abort();
      }
      // Connections that close() drops were not aborted by their client.
      if (res.writableFinished || !entry || closing) return;
      entry.aborted = true;
      if (!closing) events.emit('aborted', entry);
    });

    let rawBody: Buffer;
    try {
      rawBody = await readBody(req);
    } catch {
      return;
    }
    if (!match) {
      return sendJson(res, 404, { error: { message: `No simulated vendor at ${url.pathname}; use /anthropic, /gemini, /openai or /claude-ai` } });
    }
    const vendor = match[1] as Vendor;
    const path = match[2] ?? '/';
    const parsed = parseJsonBody(rawBody);
    const query = queryRecord(url.searchParams);
    const method = req.method ?? 'GET';
    const body = parsed.ok ? parsed.value : undefined;
    entry = { vendor, method, path, query, headers: req.headers, body, rawBody, aborted: false };
    record(entry);

    if (latencyMs > 0) await sleep(latencyMs, signal());
    if (clientLeft) return;
    const exchange: Exchange = {
      req, res, method, path, query, body, rawBody, settings, state, nextId: () => (counter += 1),
      get signal() {
        return signal();
      },
    };
    try {
      await handlers[vendor](exchange);
    } catch (error) {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `simulator failure: ${String(error)}` } });
      else res.destroy();
    }
  }

  // Nothing a client sends may take the simulator down: an unexpected failure drops that one connection.
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = baseUrl(host, (server.address() as AddressInfo).port);

  return {
    url,
    anthropicUrl: `${url}/anthropic`,
    geminiUrl: `${url}/gemini`,
    openaiUrl: `${url}/openai`,
    claudeAiUrl: `${url}/claude-ai`,
    claudeAi: claudeAi.control,
    requests,
    reset(): void {
      requests.length = 0;
      state.clear();
      counter = 0;
    },
    close(): Promise<void> {
      closing = true;
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    on(event: 'aborted', fn: (r: RecordedRequest) => void): void {
      events.on(event, fn);
    },
  };
}
