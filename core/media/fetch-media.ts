import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { GatewayError, isGatewayError } from '../errors/gateway-error';
import type { GatewaySettings } from '../hooks/plugin-api';
import { mediaTypeOf } from './sniff-media-type';

/** How many redirects a media URL may take; each hop is checked like the first. */
export const MAX_MEDIA_REDIRECTS = 5;

export interface FetchMediaOptions extends Readonly<GatewaySettings['media']> {
  /** The request field the URL came from (`messages[0].content[1].image_url`), named in errors. */
  field?: string;
  /** The client's abort signal: a client that goes away stops the download. */
  signal?: AbortSignal;
}

export interface FetchedMedia {
  /** From the response's content-type, else sniffed from the bytes, else `application/octet-stream`. Lowercase, no parameters. */
  mediaType: string;
  data: Buffer;
  /** The URL the bytes came from, after redirects. */
  finalUrl: string;
}

/** What request-filtering-agent raises when a resolved address is refused. */
const GUARD_REFUSAL = /^DNS lookup (\S+?)\(.*is not allowed/;

/**
 * Downloads a client-supplied media URL for inlining, as an untrusted fetch (DECISIONS §3, §8):
 * - only http(s); at most `maxBytes` (checked on content-length and while reading); one deadline of `timeoutMs`
 *   for every hop and the body; redirects followed here, at most MAX_MEDIA_REDIRECTS, each checked like the first;
 * - SSRF guard unless `allowPrivateAddresses`: IP literals are refused up front (WHATWG URL parsing has already
 *   turned decimal, octal and hex spellings into dotted form), and request-filtering-agent refuses any address that
 *   is not public unicast on the address the socket actually connects to, after DNS, so a name that resolves (or
 *   re-resolves, DNS rebinding) to loopback, link-local (169.254.169.254), private (RFC 1918, fc00::/7, CGNAT),
 *   unspecified or IPv4-mapped addresses fails.
 * Errors are GatewayErrors naming the field and the host only: paths and queries of signed URLs stay out of messages.
 */
export async function fetchMedia(url: string, options: FetchMediaOptions): Promise<FetchedMedia> {
  const where = options.field ? `${options.field}: ` : '';
  const invalid = (message: string, cause?: unknown): GatewayError =>
    new GatewayError('GW_INVALID_REQUEST', `${where}${message}`, { param: options.field, cause });
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;

  let current = parseMediaUrl(url, invalid);
  for (let hop = 0; ; hop += 1) {
    assertAllowedHost(current, options.allowPrivateAddresses, invalid);
    let response: http.IncomingMessage;
    try {
      response = await get(current, signal, options.allowPrivateAddresses);
    } catch (error) {
      throw describeFailure(error, current, { deadline, client: options.signal, timeoutMs: options.timeoutMs, invalid, where });
    }
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.destroy();
      if (hop >= MAX_MEDIA_REDIRECTS) throw invalid(`media URL redirected more than ${MAX_MEDIA_REDIRECTS} times`);
      current = parseMediaUrl(new URL(location, current).href, invalid);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.destroy();
      throw invalid(`fetching the media URL from ${current.host} failed with HTTP ${status}`);
    }
    let data: Buffer;
    try {
      data = await readBounded(response, options.maxBytes, where, options.field);
    } catch (error) {
      throw describeFailure(error, current, { deadline, client: options.signal, timeoutMs: options.timeoutMs, invalid, where });
    }
    return { mediaType: mediaTypeOf(response.headers['content-type'], data), data, finalUrl: current.href };
  }
}

function parseMediaUrl(text: string, invalid: (message: string) => GatewayError): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('is neither a data URI nor an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`media URLs must be http or https, not ${url.protocol.slice(0, -1)}`);
  return url;
}

/** IP literals are judged before connecting, with the same classes the agent applies after DNS. */
function assertAllowedHost(url: URL, allowPrivate: boolean, invalid: (message: string) => GatewayError): void {
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host) === 0) return;
  const address = ipaddr.parse(host);
  if (address.range() !== 'unicast' || isIpv4Compatible(address)) throw invalid(refusal(url.hostname, host));
}

/**
 * `::a.b.c.d` (deprecated IPv4-compatible IPv6, ::/96): WHATWG URL parsing writes `[::127.0.0.1]` as `[::7f00:1]`,
 * which ipaddr.js calls unicast. It names an IPv4 host; whatever that host is, no public server is reached so.
 */
function isIpv4Compatible(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0);
}

function refusal(host: string, address: string): string {
  return `refused to fetch media from ${host}: ${address} is a loopback, private, link-local or otherwise non-public address`;
}

function get(url: URL, signal: AbortSignal, allowPrivate: boolean): Promise<http.IncomingMessage> {
  const filter = { allowPrivateIPAddress: allowPrivate, allowMetaIPAddress: allowPrivate, keepAlive: false };
  const secure = url.protocol === 'https:';
  const agent = secure ? new RequestFilteringHttpsAgent(filter) : new RequestFilteringHttpAgent(filter);
  const headers = { accept: '*/*', 'accept-encoding': 'identity', 'user-agent': 'model-gateway-media-fetch/1' };
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).get(url, { agent, headers, signal }, resolve);
    // `on`, not `once`: an abort after the response can make the request emit again; with no listener that would throw.
    request.on('error', reject);
  });
}

async function readBounded(response: http.IncomingMessage, maxBytes: number, where: string, field: string | undefined): Promise<Buffer> {
  const tooLarge = (): GatewayError =>
    new GatewayError('GW_BODY_TOO_LARGE', `${where}the media at this URL is larger than the ${maxBytes}-byte limit`, { param: field });
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const body = decoded(response, where);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } finally {
    if (!response.destroyed) response.destroy();
    if (body !== response && !body.destroyed) body.destroy();
  }
  return Buffer.concat(chunks, size);
}

/** `identity` was asked for, but a server may compress anyway; the limit applies to the decoded bytes. */
function decoded(response: http.IncomingMessage, where: string): Readable {
  const encoding = String(response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  switch (encoding) {
    case 'identity':
    case '':
      return response;
    case 'gzip':
    case 'x-gzip':
      return pipeline(response, zlib.createGunzip(), noop);
    case 'deflate':
      return pipeline(response, zlib.createInflate(), noop);
    case 'br':
      return pipeline(response, zlib.createBrotliDecompress(), noop);
    default:
      response.destroy();
      throw new GatewayError('GW_INVALID_REQUEST', `${where}the media URL answered with an unsupported content-encoding "${encoding}"`);
  }
}

/** pipeline() reports errors here and to the returned stream, whose reader sees them. */
function noop(): void {}

interface FailureContext {
  deadline: AbortSignal;
  client?: AbortSignal;
  timeoutMs: number;
  invalid: (message: string, cause?: unknown) => GatewayError;
  where: string;
}

/** Transport failures → GatewayErrors that name the host, never the path or query. */
function describeFailure(error: unknown, url: URL, context: FailureContext): GatewayError {
  if (isGatewayError(error)) return error;
  const code = (error as { code?: unknown }).code;
  const cause = Object.assign(new Error(typeof code === 'string' ? code : 'media fetch failed'), { code });
  if (context.client?.aborted) return new GatewayError('GW_CLIENT_CLOSED', `${context.where}client went away while the media URL was fetched`, { cause });
  if (context.deadline.aborted) return context.invalid(`fetching the media URL from ${url.host} timed out after ${context.timeoutMs}ms`, cause);
  const message = error instanceof Error ? error.message : '';
  const refused = GUARD_REFUSAL.exec(message);
  if (refused) return context.invalid(refusal(url.hostname, refused[1]), cause);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return context.invalid(`could not resolve the media host ${url.hostname}`, cause);
  return context.invalid(`could not fetch the media URL from ${url.host} (${typeof code === 'string' ? code : 'connection failed'})`, cause);
}
