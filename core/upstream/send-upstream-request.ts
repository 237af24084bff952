import { GatewayError } from '../errors/gateway-error';
import { abortSourceOf } from '../http/request-context';
import type { PlatformBaseOptions, RequestContext, UpstreamRequest, UpstreamResponse } from '../hooks/plugin-api';

/**
 * Sends an UpstreamRequest to a platform's baseUrl with the given credential headers, bound to the client's
 * abort signal and the platform's timeouts. Plugins call this from their `upstreamCall` tap.
 */
export async function sendUpstreamRequest(
  request: UpstreamRequest,
  ctx: RequestContext,
  platform: Pick<PlatformBaseOptions, 'baseUrl' | 'timeouts'>,
  credentialHeaders: Record<string, string>,
): Promise<UpstreamResponse> {
  // Appended to the base URL: a path not starting with `/` (`@evil.example/…`) could name another host.
  if (request.path.charCodeAt(0) !== SLASH) throw new GatewayError('GW_INTERNAL', 'an upstream path must start with "/"');
  // URL parsing resolves `.`/`..` segments (`%2E` too): a client's id made into one would reach another upstream path.
  if (DOT_SEGMENT.test(request.path)) throw new GatewayError('GW_NOT_FOUND', 'no such resource: the path has a "." or ".." segment');
  const body = upstreamBodyOf(request.body, request.json);
  // Not `{ ...request.headers, ...credentialHeaders }`: on Node 20 a spread copy that then gains keys its source
  // lacks gets a hidden class of its own every time (measured: ~0.5 µs, and megamorphic code wherever it goes).
  const headers: Record<string, string> = Object.assign({}, request.headers, credentialHeaders);
  if (body !== undefined && !hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json';
  const response = await ctx.upstream.send({
    url: platform.baseUrl + request.path,
    method: request.method,
    headers,
    body,
    signal: abortSourceOf(ctx),
    timeouts: platform.timeouts,
  });
  ctx.upstreamLatencyMs = response.latencyMs;
  return { status: response.status, headers: response.headers, body: response.body, credentials: credentialsIn(credentialHeaders) };
}

const SLASH = 0x2f;

/** A `.` or `..` path segment, plain or percent-encoded, before any query; `\` separates segments as `/` does in http(s) URLs. */
const DOT_SEGMENT = /^[^?#]*[/\\](?:\.|%2e){1,2}(?:[/\\?#]|$)/i;

/** Headers that carry a credential; `authorization` without its scheme. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key']);

function credentialsIn(headers: Record<string, string>): string[] {
  const credentials: string[] = [];
  for (const name in headers) {
    if (CREDENTIAL_HEADERS.has(name.toLowerCase())) credentials.push(headers[name].replace(/^(?:Bearer|Basic)\s+/i, ''));
  }
  return credentials;
}

/** The bytes that go upstream: `body` when set, else `json` serialized. */
export function upstreamBodyOf(body: Buffer | undefined, json: unknown): Buffer | undefined {
  return body ?? (json === undefined ? undefined : Buffer.from(JSON.stringify(json)));
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}
