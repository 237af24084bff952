import { CODECS } from '../codecs';
import { isGatewayError } from '../errors/gateway-error';
import type { UpstreamResponse } from '../hooks/plugin-api';
import { upstreamStreamFraming } from '../sse/upstream-stream-framing';
import type { StreamFraming } from '../sse/wire-event';
import type { WireFormat } from '../unified/unified-request';
import { readUpstreamJson } from '../upstream/read-upstream-json';

/**
 * Bound for a non-streaming upstream answer: generated images arrive inline (a few MB each), and the bytes are held
 * whole, decompressed, and parsed: an upstream's compressed bomb must not take the process's memory.
 */
export const RESPONSE_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * How a stream request's successful upstream answer is framed (see upstreamStreamFraming), checked before any byte
 * reaches the client, on a translation and on a passthrough alike: an answer that is no stream (a whole completion
 * from a service that ignored `stream`, an HTML page, nothing) is a 502, where relayed as it came the SDKs read it as
 * a stream that ended with no event and no error. A JSON error envelope in the 200 (`{"error": …}`, as some
 * compatible services answer a stream they refuse) is that error, its message kept.
 */
export async function streamAnswerFraming(upstream: UpstreamResponse, format: WireFormat, sseOnly = false): Promise<StreamFraming> {
  try {
    return upstreamStreamFraming(upstream.headers['content-type'], format, sseOnly);
  } catch (framingError) {
    throw await errorInsteadOfStream(upstream, format, framingError);
  }
}

async function errorInsteadOfStream(upstream: UpstreamResponse, format: WireFormat, framingError: unknown): Promise<unknown> {
  if (!/[/+]json\b/i.test(String(upstream.headers['content-type']))) {
    upstream.body.destroy();
    return framingError;
  }
  try {
    CODECS[format].decodeResponse(await readUpstreamJson(upstream, RESPONSE_BODY_LIMIT));
  } catch (error) {
    if (isGatewayError(error) && error.code !== 'GW_UPSTREAM_BAD_RESPONSE') return error;
  }
  return framingError;
}
