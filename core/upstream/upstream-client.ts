import http from 'node:http';
import https from 'node:https';
import { finished, Readable } from 'node:stream';
import axios from 'axios';
import type { AxiosResponse } from 'axios';
import { GatewayError, isGatewayError } from '../errors/gateway-error';
import { classifyUpstreamError } from './classify-upstream-error';
import { nodeHttpAdapter } from './node-http-adapter';
import { createOpenCalls, type OpenCalls } from './open-calls';
import { followBody } from './follow-body';
import { markSending, RELEASE_MIN_BYTES } from './release-body';

/** Each in milliseconds; 0 (or a value beyond the 2^31-1 ms timer range) disables that timeout. */
export interface UpstreamTimeouts {
  /** Until a socket is connected (TLS included); time spent waiting for a pooled socket counts too. */
  connectMs: number;
  /** The whole exchange: connect, request, response headers and the whole body. */
  totalMs: number;
  /** Longest gap without body bytes once the response headers have arrived. */
  idleMs: number;
}

/**
 * What the client watches to tear a request down: an AbortSignal fits, and so does core's cheaper per-request
 * ClientAbort (see core/http/client-abort.ts).
 */
export interface AbortSource {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface UpstreamHttpRequest {
  url: string;
  method: string;
  /**
   * Sent as given, except hop-by-hop headers, host and content-length, which the client manages. Nothing
   * is added (no user-agent, accept or accept-encoding): a caller that wants compression asks for it.
   */
  headers: Record<string, string>;
  body?: Buffer | string;
  /** Aborted when the gateway's own client goes away: the upstream request is torn down. */
  signal?: AbortSource;
  timeouts: UpstreamTimeouts;
}

export interface UpstreamHttpResponse {
  /** Every status, 2xx or not; only transport failures reject. */
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /**
   * Decompressed bytes. Errors it emits are GatewayErrors (timeouts, connection loss); with no listener of
   * the caller's they are swallowed rather than crash the process. Destroying it closes the upstream socket.
   */
  body: Readable;
  /** Until the response headers arrived. */
  latencyMs: number;
}

export interface UpstreamClient {
  send(req: UpstreamHttpRequest): Promise<UpstreamHttpResponse>;
  /**
   * Ends every call still open with GW_SHUTTING_DOWN: a pending call rejects, a streaming body errors, so each
   * answer ends as a cut upstream makes it end (a stream with its format's error event).
   */
  cutAll(reason: string): void;
  /** Closes pooled sockets. */
  close(): void;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1), plus the ones Node derives from the body and the URL. */
const DROPPED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
]);

/**
 * axios's `headers` of every call: the caller's go as `nodeHeaders`. axios gives a POST body without a content type a
 * form one; `false` tells it not to, so only the caller's headers go out (the adapter sends no `false` value).
 */
const NO_DEFAULT_HEADERS = Object.freeze({ 'content-type': false as const });

const MAX_TIMER_MS = 2 ** 31 - 1;

/** Pooled sockets an upstream closes are dropped from the pool as their FIN arrives: only those in flight are met. */
const MAX_DEAD_SOCKET_RETRIES = 4;

/**
 * How soon a dead pooled socket fails: the upstream's FIN or RST for a socket it closed crosses the request within a
 * round trip. An upstream that read the request and dropped it later is not retried.
 */
const DEAD_SOCKET_WINDOW_MS = 250;

/**
 * The one way core and plugins call upstreams. One axios instance over keep-alive agents;
 * timeouts, abort and error mapping are handled here so callers only see GatewayErrors.
 * The instance is an `axios.Axios` built with exactly these settings: `axios.create` would merge in axios's global
 * defaults (default headers, transitional options, form-data environment), which every request then merges again
 * (~15 µs of CPU per call, measured). The node:http adapter does the transport (see node-http-adapter.ts).
 */
export function createUpstreamClient(): UpstreamClient {
  const agentOptions = {
    keepAlive: true,
    keepAliveMsecs: 60_000,
    // Long streams hold a socket each; the cap only guards against runaway fan-out.
    maxSockets: 1024,
    maxFreeSockets: 256,
    // Idle pooled sockets are closed before typical upstream idle cut-offs, so a reused socket is rarely dead.
    timeout: 30_000,
  };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  const instance = new axios.Axios({
    // The keys every request sets, declared here as undefined (which axios skips when it merges): axios merges each
    // request into the defaults through `{ ...defaults, ...request }`, and keys the defaults lack make V8 build a
    // fresh hidden class per request, in old space (measured: ~2 KB of old-space garbage and its GC per request).
    url: undefined,
    method: undefined,
    headers: undefined,
    nodeHeaders: undefined,
    data: undefined,
    transport: undefined,
    // Nothing else: axios's merge visits every key of the defaults on every request (~0.45 µs each, measured). The
    // adapter's own defaults are what the gateway wants (no proxy, decompression, every status resolved, no
    // transforms), and the agents are handed to the transport (see sendRequest), not through the config.
    adapter: nodeHttpAdapter,
    maxRedirects: 0,
    responseType: 'stream',
  });

  const open = createOpenCalls<GatewayError>();
  return {
    send: (req) => sendRequest(instance, req, open, { httpAgent, httpsAgent }),
    cutAll(reason) {
      open.cutAll(() => new GatewayError('GW_SHUTTING_DOWN', reason));
    },
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

type AxiosInstance = InstanceType<typeof axios.Axios>;

function sendRequest(
  instance: AxiosInstance,
  req: UpstreamHttpRequest,
  open: OpenCalls<GatewayError>,
  agents: { httpAgent: http.Agent; httpsAgent: https.Agent },
): Promise<UpstreamHttpResponse> {
  const started = performance.now();
  const { connectMs, totalMs, idleMs } = req.timeouts;
  // The closures below live as long as the answer streams: they must not reach `req`, and `data` is cleared once
  // axios has it, so a long stream does not keep the bytes it was asked with.
  const { url, method, headers, signal } = req;
  let data = req.body;
  // Only failures name the target: parsing the URL for every request would be wasted.
  const target = (): string => describeTarget(url);

  if (signal?.aborted) return Promise.reject(abortError(signal, target()));
  const large = ArrayBuffer.isView(data) && data.byteLength >= RELEASE_MIN_BYTES;

  return new Promise<UpstreamHttpResponse>((resolve, reject) => {
    // Built once per call, attempts included, before any timer starts: the adapter sends them as they are (see nodeHeaders).
    const nodeHeaders = toNodeHeaders(headers);
    let failure: GatewayError | undefined;
    let clientRequest: http.ClientRequest | undefined;
    let incoming: http.IncomingMessage | undefined;
    let body: Readable | undefined;
    let idleTimer: NodeJS.Timeout | undefined;
    // Until a request has written every byte, the body must not be released (see releaseBody).
    let sent: (() => void) | undefined;
    let retries = 0;
    /** The attempt's start, and its socket's bytes read until then: a dead pooled socket fails at once, reading none. */
    let attemptStartedAt = 0;
    let bytesReadBefore = 0;

    const startConnectTimer = (): NodeJS.Timeout | undefined =>
      startTimer(connectMs, () => fail(new GatewayError('GW_UPSTREAM_TIMEOUT', `upstream connect timeout after ${connectMs}ms (${target()})`)));
    /**
     * Started only for an attempt that gets no connected socket at once: a new connection, or a wait for a pooled socket.
     * A keep-alive socket handed over at once (most calls) needs none, and a timer made and cleared on every call cost
     * ~1.8 µs in a profile of the passthrough cell (its timer list emptied and made again each time).
     */
    let connectTimer: NodeJS.Timeout | undefined;
    /** The current attempt's request has its socket. */
    let socketAssigned = false;
    const totalTimer = startTimer(totalMs, () =>
      fail(new GatewayError('GW_UPSTREAM_TIMEOUT', `upstream total timeout after ${totalMs}ms (${target()})`)),
    );
    const onClientAbort = (): void => fail(abortError(signal, target()));
    signal?.addEventListener('abort', onClientAbort, { once: true });

    const call = open.add(fail);

    /** Nothing can time out any more: the body ended, or the call failed or was torn down. */
    let settled = false;
    function cleanup(): void {
      settled = true;
      open.remove(call);
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      clearTimeout(idleTimer);
      signal?.removeEventListener('abort', onClientAbort);
    }

    function fail(error: GatewayError): void {
      if (failure !== undefined) return;
      failure = error;
      cleanup();
      // Destroying the request ends the exchange; axios then rejects, which is ignored below.
      clientRequest?.destroy();
      incoming?.destroy();
      if (body === undefined) reject(error);
      else body.destroy(error);
    }

    const transport = {
      request(options: http.RequestOptions, onResponse: (res: http.IncomingMessage) => void): http.ClientRequest {
        const handle = (res: http.IncomingMessage): void => {
          incoming = res;
          onResponse(res);
        };
        // Looked up at call time so test interceptors (nock) that patch http.request still apply.
        const secure = options.protocol === 'https:';
        options.agent = secure ? agents.httpsAgent : agents.httpAgent;
        const request = secure ? https.request(options, handle) : http.request(options, handle);
        clientRequest = request;
        if (sent) {
          // 'finish': every byte has left. 'close' without it: Node has marked the request destroyed, and its socket's
          // pending writes are done or cancelled by then.
          request.once('finish', sent);
          request.once('close', sent);
        }
        if (failure !== undefined) request.destroy();
        socketAssigned = false;
        request.once('socket', (socket) => {
          socketAssigned = true;
          bytesReadBefore = socket.bytesRead;
          if (!socket.connecting) {
            clearTimeout(connectTimer);
            return;
          }
          connectTimer ??= startConnectTimer();
          socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
        });
        // Node hands a free pooled socket over on the next tick ('socket'), before this runs: a request still without one
        // waits for a pooled socket (the agent's limit), which the connect timeout covers.
        process.nextTick(() => {
          if (!socketAssigned && failure === undefined && clientRequest === request) connectTimer ??= startConnectTimer();
        });
        return request;
      },
    };

    function attempt(): void {
      attemptStartedAt = performance.now();
      if (large) sent = markSending(data as ArrayBufferView);
      instance.request<Readable>({ url, method, headers: NO_DEFAULT_HEADERS, nodeHeaders, data, transport }).then(onAnswer, onRefused);
    }

    function onAnswer(response: AxiosResponse<Readable>): void {
      // Sent: neither this closure's `data` nor the adapter's config (kept for as long as the answer streams) holds the
      // request's bytes any more.
      data = undefined;
      response.config.data = undefined;
      const source = response.data;
      if (failure !== undefined) {
        source.destroy();
        return;
      }
      clearTimeout(connectTimer);
      const stream = followBody(source, {
        // Each chunk keeps the idle timer fed.
        onChunk: () => idleTimer?.refresh(),
        // The upstream body is complete: nothing can time out any more.
        onEnd: cleanup,
        onFail: (err) => fail(classifyUpstreamError(err, target(), 'body')),
        onDestroy: cleanup,
      });
      body = stream;
      // Armed after this turn of the event loop: a whole answer has arrived with its head and been read by then (most
      // calls), and needs no timer; a timer made and cleared on every call showed at ~1.4 µs per request in a profile.
      setImmediate(() => {
        if (settled) return;
        idleTimer = startTimer(idleMs, () => {
          // Bytes waiting for our consumer mean it is slow, not the upstream.
          if (stream.readableLength > 0 || source.isPaused()) {
            idleTimer?.refresh();
            return;
          }
          fail(new GatewayError('GW_UPSTREAM_TIMEOUT', `upstream idle timeout: no body bytes for ${idleMs}ms (${target()})`));
        });
      });
      resolve({
        status: response.status,
        headers: incoming?.headers ?? {},
        body: stream,
        latencyMs: performance.now() - started,
      });
    }

    function onRefused(err: unknown): void {
      // Refused before any request existed (bad URL, options): no socket will ever read the body.
      if (clientRequest === undefined) sent?.();
      if (failure !== undefined) return;
      if (retries < MAX_DEAD_SOCKET_RETRIES && clientRequest?.reusedSocket && incoming === undefined && wasDeadOnArrival(err, clientRequest, bytesReadBefore, attemptStartedAt)) {
        // A pooled keep-alive socket the upstream closed as this request went out (its idle cut-off raced our reuse):
        // the upstream saw no request on it, so it goes again, as Node's docs advise. The next socket may be another
        // pooled one that died the same way; a failure on a new connection is never retried.
        retries += 1;
        clientRequest = undefined;
        clearTimeout(connectTimer);
        connectTimer = undefined;
        attempt();
        return;
      }
      data = undefined;
      const error = classifyUpstreamError(err, target(), 'request');
      failure = error;
      cleanup();
      clientRequest?.destroy();
      reject(error);
    }

    attempt();
  });
}

/**
 * Whether a request failed on a pooled socket the upstream had closed before it could read the request: a write to the
 * closed socket (EPIPE), or a reset or hang-up (ECONNRESET) within DEAD_SOCKET_WINDOW_MS of sending, with no byte read.
 * A reset later, or after bytes of an answer, may follow a request the upstream read and worked on (a crash, a proxy
 * cutting it off): that one is not sent again, each delivery being a paid generation.
 */
function wasDeadOnArrival(err: unknown, request: http.ClientRequest, bytesReadBefore: number, startedAt: number): boolean {
  const code = axios.isAxiosError(err) ? (err.cause as { code?: unknown } | undefined)?.code : undefined;
  if (code !== 'ECONNRESET' && code !== 'EPIPE') return false;
  if ((request.socket?.bytesRead ?? bytesReadBefore) !== bytesReadBefore) return false;
  return code === 'EPIPE' || performance.now() - startedAt <= DEAD_SOCKET_WINDOW_MS;
}

/** Node timers overflow above 2^31-1 ms (and fire at once); a zero, negative or unbounded timeout means none. */
function startTimer(ms: number, onExpire: () => void): NodeJS.Timeout | undefined {
  return ms > 0 && ms <= MAX_TIMER_MS ? setTimeout(onExpire, ms) : undefined;
}

/**
 * The caller's headers as Node sends them: names lower-cased, hop-by-hop and transport-owned ones left out, values
 * cleaned as axios cleans its own `headers` (control characters removed, spaces and tabs at the ends trimmed): a key
 * an operator pasted with its newline still works, where Node would refuse the request (ERR_INVALID_CHAR).
 */
function toNodeHeaders(headers: Record<string, string>): Record<string, string | string[]> {
  const out = new CallHeaders() as Record<string, string | string[]>;
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    // A plugin in JavaScript may hand any value: axios left out undefined and null, and sent the rest as text.
    const value = headers[name] as unknown;
    if (DROPPED_HEADERS.has(lower) || value === undefined || value === null || value === false) continue;
    out[lower] = Array.isArray(value) ? value.map(cleanHeaderValue) : cleanHeaderValue(value);
  }
  return out;
}

/**
 * A call's headers, made for it: an instance of a class, which axios's config merge passes on as it is, where it
 * copies a plain object key by key (measured: ~0.5–1 µs per call for an SDK's headers).
 */
class CallHeaders {}

function cleanHeaderValue(value: unknown): string {
  const text = String(value);
  return UNCLEAN_HEADER_VALUE.test(text) ? text.replace(CONTROL_CHARACTERS, '').replace(EDGE_BLANKS, '') : text;
}

/** What axios's header sanitising changes (its INVALID_UNICODE_HEADER_VALUE_CHARS and trimSPorHTAB). */
const UNCLEAN_HEADER_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]|^[ \t]|[ \t]$/;
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000a-\u001f\u007f]+/g;
const EDGE_BLANKS = /^[ \t]+|[ \t]+$/g;

/** `host:port` only: paths and query strings may carry keys (Gemini `?key=`), userinfo may carry passwords. */
function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || (parsed.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return 'an invalid URL';
  }
}

function abortError(signal: AbortSource | undefined, target: string): GatewayError {
  const reason: unknown = signal?.reason;
  if (isGatewayError(reason)) return reason;
  return new GatewayError('GW_CLIENT_CLOSED', `upstream request to ${target} aborted by the caller`);
}

/**
 * Collects a response body up to `limitBytes`. Beyond that, or when the stream fails, the body is
 * destroyed and a GatewayError is thrown (GW_UPSTREAM_BAD_RESPONSE unless the stream gave one).
 * Plain 'data' events and `finished` (which also settles a body that ended or failed before this call) where an
 * async iterator would cost an async generator and a promise per chunk: every translated answer comes through here.
 */
export function readUpstreamBody(
  res: Pick<UpstreamHttpResponse, 'body'> & Partial<Pick<UpstreamHttpResponse, 'headers'>>,
  limitBytes: number,
): Promise<Buffer> {
  const body = res.body;
  const tooLarge = (): GatewayError =>
    new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream response body exceeds the ${limitBytes}-byte limit`);
  const declared = res.headers?.['content-length'];
  if (typeof declared === 'string' && Number(declared) > limitBytes) {
    body.destroy();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      body.destroy();
      reject(isGatewayError(err) ? err : new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream response body could not be read', { cause: err }));
    };
    const onData = (raw: unknown): void => {
      const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw));
      size += chunk.length;
      if (size > limitBytes) fail(tooLarge());
      else chunks.push(chunk);
    };
    body.on('data', onData);
    finished(body, (err) => {
      if (err) fail(err);
      else if (!settled) {
        settled = true;
        resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
      }
    });
  });
}
