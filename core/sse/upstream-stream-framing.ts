import { GatewayError } from '../errors/gateway-error';
import type { WireFormat } from '../unified/unified-request';
import { isEventStream } from './is-event-stream';
import type { StreamFraming } from './wire-event';

/**
 * How a streamed upstream answer is framed, from its content type: SSE (or no type said), or for Gemini a JSON
 * array, unless only SSE will do (a passthrough client that asked `alt=sse`). Anything else (an HTML error page, a
 * JSON object where SSE was asked) is a 502 while nothing has reached the client yet, not a 200 stream ending in an
 * error event.
 */
export function upstreamStreamFraming(contentType: string | string[] | undefined, upstreamFormat: WireFormat, sseOnly = false): StreamFraming {
  if (isEventStream(contentType)) return 'sse';
  const value = String(Array.isArray(contentType) ? contentType[0] : contentType);
  if (upstreamFormat === 'gemini' && !sseOnly && /[/+]json\b/i.test(value)) return 'json-array';
  throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream answered a stream request with ${value.split(';')[0]}, not a stream`);
}
