import { maskGivenSecrets } from '../errors/mask-secret';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Client headers never forwarded: credentials (Azure's `api-key` too), hop-by-hop, what the gateway recomputes
 * (`content-encoding`: the body read was inflated, and goes on as it was read), the client's addresses, the headers
 * that choose which of the operator's organisations or projects a call is billed to (a client must not pick them for
 * the operator's key), and those some servers take to change the method or the path a request names (Google's front
 * ends honour `x-http-method-override`): a passthrough forwards the endpoint the client called, nothing else.
 */
const DROP_REQUEST = new Set([
  'authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'cookie', 'host', 'connection', 'keep-alive', 'content-length',
  'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'expect',
  'accept-encoding', 'content-encoding', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port',
  'x-real-ip', 'forwarded', 'cf-connecting-ip', 'true-client-ip', 'x-client-ip', 'origin', 'referer', 'x-request-id',
  'openai-organization', 'openai-project', 'x-goog-user-project', 'anthropic-organization-id', 'x-goog-request-params',
  'x-http-method-override', 'x-http-method', 'x-method-override', 'x-original-url', 'x-rewrite-url',
]);

/** Client headers that go upstream on a passthrough (vendor version/beta headers, content type, agent). */
export function forwardableRequestHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const hopByHop = connectionOptions(headers.connection);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROP_REQUEST.has(name) || hopByHop?.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * The header names a `Connection` header lists (RFC 9110 §7.6.1): they are for this hop only, and a proxy removes
 * them before forwarding. Undefined for the usual `keep-alive` or `close`, which name no other header.
 */
function connectionOptions(connection: string | string[] | undefined): Set<string> | undefined {
  if (connection === undefined || connection === 'keep-alive' || connection === 'close') return undefined;
  const names = new Set<string>();
  for (const option of (Array.isArray(connection) ? connection.join(',') : connection).split(',')) {
    const name = option.trim().toLowerCase();
    if (name) names.add(name);
  }
  return names;
}

/**
 * Upstream response headers never returned: hop-by-hop, framing the gateway redoes, and the operator's account ids.
 * content-length passes: the bytes pass unchanged (the upstream client removes it when it decompresses a body).
 */
const DROP_RESPONSE = /^(connection|keep-alive|transfer-encoding|content-encoding|set-cookie|server|alt-svc|via|date|x-request-id|.*-organization(-id)?|openai-project|cf-.*|x-cloud-trace-context|x-goog-.*|report-to|nel|strict-transport-security)$/;

/**
 * Upstream headers a passthrough returns to the client (content type, request ids, rate-limit hints), with the
 * credentials the call sent masked wherever a header echoes them (a debugging proxy's `x-debug-auth`).
 */
export function returnableResponseHeaders(headers: Record<string, string | string[] | undefined>, credentials: readonly string[] = []): Record<string, string | string[]> {
  const hopByHop = connectionOptions(headers.connection);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROP_RESPONSE.test(name) || hopByHop?.has(name)) continue;
    out[name] = credentials.length === 0 ? value : Array.isArray(value) ? value.map((v) => maskGivenSecrets(v, credentials)) : maskGivenSecrets(value, credentials);
  }
  return out;
}
