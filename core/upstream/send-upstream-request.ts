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
  const body = request.body ?? (request.json === undefined ? undefined : Buffer.from(JSON.stringify(request.json)));
  const headers: Record<string, string> = { ...request.headers, ...credentialHeaders };
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
  return response;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}
