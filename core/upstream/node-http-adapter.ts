import http from 'node:http';
import https from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import axios from 'axios';
import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from 'axios';

/**
 * An axios adapter (the documented `adapter` option) on plain `node:http`/`node:https`: what the gateway's
 * upstream calls need and nothing else. axios's own http adapter adds a redirect wrapper, progress and proxy
 * machinery, an HTTP/2 path and per-request socket set-up; on the gateway's hot path this one costs measurably
 * less CPU and memory per request (figures in bench/, `npm run bench`).
 *
 * Honoured: `url` (absolute, or `baseURL` + `url` and `params` through `axios.getUri`), `method`, `headers`
 * (`false`/null values are not sent) and `nodeHeaders` (see below), `data` (string, Buffer, typed array, ArrayBuffer
 * or Readable), `auth` and URL userinfo, `httpAgent`/`httpsAgent`, `transport`, `timeout` (socket inactivity, as
 * axios does) with
 * `timeoutErrorMessage` and `transitional.clarifyTimeoutError`, `signal` and `cancelToken`, `validateStatus`,
 * `decompress` (gzip, deflate, br; content-encoding and content-length are then removed), `responseType`
 * (`stream`, `arraybuffer`, else text decoded with `responseEncoding`), `maxContentLength` on buffered answers.
 * Failures are AxiosErrors with axios's codes. Not supported, and refused with ERR_BAD_OPTION_VALUE rather than
 * ignored: following redirects (`maxRedirects` must be 0) and `proxy` (must be false or unset).
 */
declare module 'axios' {
  interface AxiosRequestConfig {
    /**
     * Headers already in the form Node sends (lower-case names, string values), sent as they are, under `headers`
     * (whose values win). axios normalises each entry of `headers` three times on the way to an adapter (a request's
     * merge, concat and from, each `set` scanning the names already set): ~17 µs of CPU for the 15 headers of an SDK's
     * request, measured, where a caller that has validated its headers once needs none of it. An instance of a class
     * is passed on by axios's config merge as it is; a plain object is copied key by key.
     */
    nodeHeaders?: Readonly<Record<string, string | string[]>>;
  }
}

/** What a request's URL gives `http.request`. */
interface RequestTarget {
  protocol: string;
  secure: boolean;
  /** Without an IPv6 address's brackets. */
  hostname: string;
  port: string;
  /** Path and query. */
  path: string;
  /** The URL's userinfo, decoded, as `user:password`. */
  auth: string | undefined;
}

/**
 * Parsed request URLs: an upstream's calls go to a handful of them, and WHATWG parsing costs ~3.5 µs of CPU per call
 * (the profile of the benchmark's passthrough cell). Bounded: a client's query strings make URLs of their own.
 */
const targets = new Map<string, RequestTarget | null>();
const MAX_TARGETS = 256;

/** The target of a URL; null when it does not parse. */
function targetOf(href: string): RequestTarget | null {
  let target = targets.get(href);
  if (target !== undefined) return target;
  target = parseTarget(href);
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(href, target);
  return target;
}

function parseTarget(href: string): RequestTarget | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  return {
    protocol: url.protocol,
    secure: url.protocol === 'https:',
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port,
    path: url.pathname + url.search,
    auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
  };
}

export const nodeHttpAdapter: AxiosAdapter = (config) =>
  new Promise<AxiosResponse>((resolve, reject) => {
    const { AxiosError, AxiosHeaders, CanceledError } = axios;
    const fail = (message: string, code: string): void => reject(new AxiosError(message, code, config));
    if (config.maxRedirects !== 0) return fail('nodeHttpAdapter does not follow redirects: set maxRedirects to 0', AxiosError.ERR_BAD_OPTION_VALUE);
    if (config.proxy) return fail('nodeHttpAdapter does not use proxies: set proxy to false', AxiosError.ERR_BAD_OPTION_VALUE);

    const target = targetOf(config.baseURL || config.params ? axios.getUri(config) : String(config.url));
    if (!target) return fail(`Invalid URL: ${String(config.url)}`, AxiosError.ERR_INVALID_URL);
    const { secure } = target;
    if (!secure && target.protocol !== 'http:') return fail(`Unsupported protocol ${target.protocol}`, AxiosError.ERR_BAD_REQUEST);

    const body = requestBody(config.data);
    if (body === false) {
      return fail('Data after transformation must be a string, an ArrayBuffer, a Buffer, or a Stream', AxiosError.ERR_BAD_REQUEST);
    }
    const headers = outgoingHeaders(config);
    if (body !== undefined && !isReadable(body)) headers['content-length'] = String(body.length);

    const signal = config.signal as AbortSignal | undefined;
    const cancelToken = config.cancelToken;
    let settled = false;
    let response: http.IncomingMessage | undefined;
    let responseBody: Readable | undefined;

    const onAbort = (reason?: unknown): void => {
      const error = reason instanceof AxiosError ? reason : new CanceledError(undefined, config, request);
      finish(error);
      if (responseBody && !responseBody.destroyed) responseBody.destroy(error);
      request.destroy();
    };
    const unsubscribe = (): void => {
      signal?.removeEventListener?.('abort', onAbortEvent);
      cancelToken?.unsubscribe(onCancel);
    };
    const finish = (error?: unknown, value?: AxiosResponse): void => {
      if (settled) return;
      settled = true;
      // A streamed body can still be cancelled while it flows, as with axios's own adapter.
      if (error === undefined && value && responseBody && config.responseType === 'stream' && !responseBody.destroyed) {
        responseBody.once('close', unsubscribe);
      } else {
        unsubscribe();
      }
      if (error === undefined && value) resolve(value);
      else reject(error);
    };
    const onAbortEvent = (): void => onAbort();
    const onCancel = (cancel: unknown): void => onAbort(cancel);

    const transport = (config.transport as typeof http | undefined) ?? (secure ? https : http);
    const auth = config.auth ? `${config.auth.username}:${config.auth.password}` : target.auth;
    const request = transport.request(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        path: target.path,
        method: (config.method ?? 'get').toUpperCase(),
        headers,
        agent: secure ? config.httpsAgent : config.httpAgent,
        auth,
      },
      (res) => {
        response = res;
        let stream: Readable = res;
        const encoding = res.headers['content-encoding'];
        if (config.decompress !== false && encoding !== undefined) {
          const noBody = request.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304;
          const decoder = noBody ? undefined : createDecoder(encoding);
          if (noBody || decoder) {
            delete res.headers['content-encoding'];
            delete res.headers['content-length'];
          }
          if (decoder) stream = pipeline(res, decoder, noop);
        }
        responseBody = stream;
        const result: AxiosResponse = {
          data: stream,
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers: responseHeaders(AxiosHeaders, res.headers),
          config,
          request,
        };
        if (config.responseType === 'stream') {
          settle(result);
          return;
        }
        collect(stream, config, (error, data) => {
          if (error) return finish(axios.isAxiosError(error) ? error : AxiosError.from(error, undefined, config, request, result));
          result.data = data;
          settle(result);
        });
      },
    );

    const settle = (result: AxiosResponse): void => {
      const validate = config.validateStatus;
      if (!result.status || !validate || validate(result.status)) return finish(undefined, result);
      const code = result.status >= 400 && result.status < 500 ? AxiosError.ERR_BAD_REQUEST : AxiosError.ERR_BAD_RESPONSE;
      finish(new AxiosError(`Request failed with status code ${result.status}`, code, config, request, result));
    };

    // A request destroyed before it had a socket closes without an error event; its caller must still hear of it.
    request.once('close', () => {
      if (response === undefined) finish(new AxiosError('request closed before a response arrived', AxiosError.ERR_CANCELED, config, request));
    });
    request.on('error', (error) => {
      if (settled) {
        // After the answer started, a transport failure belongs to the body stream; unless the whole body has arrived
        // and only what followed it broke (bytes past a short `content-length`: HPE_INVALID_CONSTANT), when the body is
        // read to its end as node:http gives it.
        if (response && !response.destroyed && !response.complete) response.destroy(error);
        return;
      }
      finish(AxiosError.from(error, undefined, config, request));
    });

    const timeout = Number(config.timeout ?? 0);
    if (Number.isNaN(timeout)) return onAbort(new AxiosError('error trying to parse `config.timeout` to int', AxiosError.ERR_BAD_OPTION_VALUE, config, request));
    if (timeout > 0) {
      // Socket inactivity, answer body included, as axios's own adapter does.
      request.setTimeout(timeout, () => {
        const message = config.timeoutErrorMessage ?? `timeout of ${timeout}ms exceeded`;
        const code = config.transitional?.clarifyTimeoutError ? AxiosError.ETIMEDOUT : AxiosError.ECONNABORTED;
        onAbort(new AxiosError(message, code, config, request));
      });
    }
    if (signal?.aborted) return onAbort();
    signal?.addEventListener?.('abort', onAbortEvent);
    cancelToken?.subscribe(onCancel);

    if (isReadable(body)) {
      body.on('error', (error) => onAbort(AxiosError.from(error, AxiosError.ERR_BAD_REQUEST, config, request)));
      body.pipe(request);
    } else {
      request.end(body);
    }
  });

function noop(): void {}

/**
 * Node has already lower-cased and validated the names and values it parsed, which is all `new AxiosHeaders(raw)`
 * would do again, header by header (each `set` scans the names already set): copied as they are instead.
 */
function responseHeaders(AxiosHeaders: typeof axios.AxiosHeaders, raw: http.IncomingHttpHeaders): InstanceType<typeof axios.AxiosHeaders> {
  return Object.assign(new AxiosHeaders(), raw);
}

function isReadable(value: unknown): value is Readable {
  return typeof value === 'object' && value !== null && typeof (value as Readable).pipe === 'function';
}

/** The bytes to send, `undefined` for none, `false` for a value axios would not send either. */
function requestBody(data: unknown): Buffer | Readable | undefined | false {
  if (data === undefined || data === null) return undefined;
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (Buffer.isBuffer(data) || isReadable(data)) return data;
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return false;
}

/** `nodeHeaders`, then axios's headers as Node takes them: names lower-cased, `false`/null/undefined values left out. */
function outgoingHeaders(config: InternalAxiosRequestConfig): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = { ...config.nodeHeaders };
  // toJSON drops the false and null values; numbers (a caller's content-length) become strings here.
  const source = config.headers ? config.headers.toJSON(true) : {};
  for (const name of Object.keys(source)) out[name.toLowerCase()] = String(source[name]);
  return out;
}

/** Flushing per chunk, as axios does, so a compressed event stream is not held back. */
function createDecoder(encoding: string | undefined): zlib.Unzip | zlib.BrotliDecompress | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
    case 'deflate':
      // gzip or zlib-wrapped deflate, told apart by their header (raw deflate, which RFC 9110 does not allow, fails).
      // Each chunk is flushed as it comes (a compressed stream's events go on at once); the end is not: a body cut
      // before its compressed stream ended fails ("unexpected end of file"), where a sync flush there took the bytes
      // that came for a whole answer (truncated JSON relayed as a complete 200).
      return emptyAsEmpty(zlib.createUnzip({ flush: zlib.constants.Z_SYNC_FLUSH }));
    case 'br':
      return emptyAsEmpty(zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH }));
    default:
      return undefined;
  }
}

/**
 * A body said to be compressed with no byte at all (a proxy's empty 503, with `content-length: 0`, chunked or closed)
 * is empty, not a compressed stream cut before it began: the decoder's end (its Transform `_flush`) finishes the
 * stream only when it was given bytes.
 */
function emptyAsEmpty<T extends zlib.Unzip | zlib.BrotliDecompress>(decoder: T): T {
  const finish = decoder._flush.bind(decoder);
  decoder._flush = (callback) => (decoder.bytesWritten === 0 ? callback() : finish(callback));
  return decoder;
}

/** Buffers a non-stream answer: a Buffer for `arraybuffer`, else text (BOM stripped for utf8). */
function collect(stream: Readable, config: InternalAxiosRequestConfig, done: (error: unknown, data?: unknown) => void): void {
  const limit = config.maxContentLength ?? -1;
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  stream.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (limit > -1 && size > limit) {
      over = true;
      stream.destroy();
      done(new axios.AxiosError(`maxContentLength size of ${limit} exceeded`, axios.AxiosError.ERR_BAD_RESPONSE, config));
      return;
    }
    chunks.push(chunk);
  });
  stream.on('error', (error) => {
    if (!over) done(error);
  });
  stream.on('end', () => {
    const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
    if (config.responseType === 'arraybuffer') return done(undefined, bytes);
    const encoding = (config.responseEncoding ?? 'utf8') as BufferEncoding;
    const text = bytes.toString(encoding);
    done(undefined, encoding === 'utf8' && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  });
}
