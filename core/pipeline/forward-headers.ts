import type { IncomingHttpHeaders } from 'node:http';

/** Client headers never forwarded: credentials, hop-by-hop, and what the gateway recomputes. */
const DROP_REQUEST = new Set([
  'authorization', 'x-api-key', 'x-goog-api-key', 'cookie', 'host', 'connection', 'keep-alive', 'content-length',
  'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'expect',
  'accept-encoding', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'forwarded', 'origin',
  'referer', 'x-request-id',
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

/** Upstream headers a passthrough returns to the client (content type, request ids, rate-limit hints). */
export function returnableResponseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROP_RESPONSE.test(name)) continue;
    out[name] = value;
  }
  return out;
}
