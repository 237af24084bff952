import { maskGivenSecrets } from '../errors/mask-secret';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Client headers never forwarded: credentials, hop-by-hop, what the gateway recomputes (`content-encoding`: the body
 * read was inflated, and goes on as it was read), the client's addresses, and the headers that choose which of the
 * operator's organisations or projects a call is billed to (a client must not pick them for the operator's key).
 */
const DROP_REQUEST = new Set([
  'authorization', 'x-api-key', 'x-goog-api-key', 'cookie', 'host', 'connection', 'keep-alive', 'content-length',
  'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'expect',
  'accept-encoding', 'content-encoding', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip',
  'forwarded', 'cf-connecting-ip', 'true-client-ip', 'x-client-ip', 'origin', 'referer', 'x-request-id',
  'openai-organization', 'openai-project', 'x-goog-user-project', 'anthropic-organization-id', 'x-goog-request-params',
]);

/** Client headers that go upstream on a passthrough (vendor version/beta headers, content type, agent). */
export function forwardableRequestHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROP_REQUEST.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
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
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROP_RESPONSE.test(name)) continue;
    out[name] = credentials.length === 0 ? value : Array.isArray(value) ? value.map((v) => maskGivenSecrets(v, credentials)) : maskGivenSecrets(value, credentials);
  }
  return out;
}
