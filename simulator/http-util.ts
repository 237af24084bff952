import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Exchange } from './types';

/** One piece of a streamed body. A paced frame waits the chunk delay before it is written. */
export interface Frame {
  text: string;
  paced: boolean;
}

const SSE_HEADERS: OutgoingHttpHeaders = { 'cache-control': 'no-cache', connection: 'keep-alive' };

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let ended = false;
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      ended = true;
      resolve(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    });
    req.on('error', reject);
    // A client that leaves mid-body never sends 'end'. Tested first: every request closes, and an Error (its stack
    // captured) made for each of them was ~8% of the simulator's CPU under load.
    req.on('close', () => {
      if (!ended) reject(new Error('request closed before its body was read'));
    });
  });
}

/** `{ ok: true, value }` for JSON (undefined for an empty body), `{ ok: false }` for anything unparsable. */
export function parseJsonBody(raw: Buffer): { ok: true; value: unknown } | { ok: false } {
  if (raw.length === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

export function queryRecord(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of params) out[name] = value;
  return out;
}

/** decodeURIComponent that leaves malformed escapes as they are. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The token of `Authorization: Bearer <token>`, if any. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return match ? match[1].trim() : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Sends the headers of a 200 stream at once, so a client sees the response start before any event. */
export function openStream(res: ServerResponse, contentType: string, headers: OutgoingHttpHeaders = {}): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(200, { ...SSE_HEADERS, ...headers, 'content-type': contentType });
  res.flushHeaders();
}

/** Resolves after `ms`, or as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Writes frames in order, pausing `delayMs` before each paced one, then ends the body. Stops if the client left. */
export async function playFrames(exchange: Exchange, frames: readonly Frame[], delayMs: number): Promise<void> {
  const { res, signal } = exchange;
  if (delayMs <= 0) {
    // Nothing to wait for: one socket write for the whole body is what keeps benchmarks cheap.
    res.cork();
    for (const frame of frames) res.write(frame.text);
    res.end();
    res.uncork();
    return;
  }
  for (const frame of frames) {
    if (frame.paced && delayMs > 0) await sleep(delayMs, signal);
    if (signal.aborted || res.destroyed) return;
    res.write(frame.text);
  }
  if (!res.destroyed) res.end();
}

/** A named SSE event (Anthropic, OpenAI Responses). */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A data-only SSE event (OpenAI Chat with LF, Gemini with CRLF). */
export function sseData(data: unknown, eol = '\n'): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}${eol}${eol}`;
}
