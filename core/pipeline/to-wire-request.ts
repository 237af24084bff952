import { CODECS } from '../codecs';
import type { RequestContext, UpstreamRequest } from '../hooks/plugin-api';
import { upstreamBodyOf } from '../upstream/send-upstream-request';

/**
 * The shaped request reduced to what goes on the wire: `body` holds the bytes (the plugin's `json`, else `unified`
 * encoded in the upstream format); `json` and `unified` are cleared. The upstream call and its retries on other
 * credentials need only the bytes, and while the upstream answers nothing holds the parsed conversation: with a
 * long one it would otherwise outlive a few young-generation collections and pile up in the old generation.
 */
export function toWireRequest(request: UpstreamRequest, ctx: RequestContext): UpstreamRequest {
  if (request.json === undefined && request.unified === undefined) return request;
  let json = request.json;
  if (request.body === undefined && json === undefined && request.unified && request.format !== 'other') {
    const { value, warnings } = CODECS[request.format].encodeRequest(request.unified);
    if (warnings.length > 0) ctx.log.debug('translation dropped fields', { warnings });
    json = value;
  }
  const body = upstreamBodyOf(request.body, json);
  // Spelled out: `{ ...request, unified: undefined }` adds a key the source may lack, which V8 does in its slow
  // path (~0.6 µs per added key, measured on Node 20). `satisfies` keeps the list complete.
  return { mode: request.mode, format: request.format, method: request.method, path: request.path, headers: request.headers, body, stream: request.stream } satisfies Record<keyof Omit<UpstreamRequest, 'json' | 'unified'>, unknown>;
}
