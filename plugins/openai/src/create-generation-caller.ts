import { Readable } from 'node:stream';
import {
  readUpstreamFailure,
  sendUpstreamRequest,
  type PlatformBaseOptions,
  type RequestContext,
  type UpstreamFailure,
  type UpstreamRequest,
  type UpstreamResponse,
} from '@gateway/core';
import type { ApiKey, KeyRotation } from './create-key-rotation';

/**
 * The platform's upstreamCall (chat completions, responses, and what is translated to them), with the next key of
 * the rotation. A Responses request that continues a stored response (`previous_response_id`) can only be served by
 * a key of the project that stored it: when the upstream answers that it does not know that response, the other keys
 * are tried in turn, none marked (the keys are fine), and the last answer goes to the client. Only a failed answer
 * costs anything here: the common path is one call.
 */
export function createGenerationCaller(options: PlatformBaseOptions, keys: Pick<KeyRotation, 'next' | 'all'>) {
  const send = (request: UpstreamRequest, ctx: RequestContext, key: ApiKey): Promise<UpstreamResponse> =>
    sendUpstreamRequest(request, ctx, options, { authorization: `Bearer ${key.secret}` });

  return async (request: UpstreamRequest, ctx: RequestContext): Promise<UpstreamResponse> => {
    const first = keys.next();
    const response = await send(request, ctx, first);
    if (response.status < 400 || keys.all.length < 2 || !continuesStoredResponse(request)) return response;
    let failure = await readUpstreamFailure(response);
    for (const key of keys.all) {
      if (!isUnknownStoredResponse(failure)) break;
      if (key === first) continue;
      const other = await send(request, ctx, key);
      if (other.status < 400) return other;
      failure = await readUpstreamFailure(other);
    }
    return replay(failure);
  };
}

/**
 * A Responses request naming an earlier response. An upstreamCall tap gets the request as bytes only (see
 * toWireRequest), searched here only after a failed answer.
 */
function continuesStoredResponse(request: UpstreamRequest): boolean {
  return request.path.startsWith('/v1/responses') && request.body !== undefined && request.body.includes('"previous_response_id"');
}

/** OpenAI: 400 `previous_response_not_found`, `param: previous_response_id` (a 404 from some compatible services). */
function isUnknownStoredResponse(failure: UpstreamFailure): boolean {
  if (failure.status !== 400 && failure.status !== 404) return false;
  const error = (failure.json as { error?: { code?: unknown; param?: unknown } } | undefined)?.error;
  return error?.code === 'previous_response_not_found' || error?.param === 'previous_response_id';
}

/** A failed answer already read, as an answer again, for core to classify as it classifies any other. */
function replay(failure: UpstreamFailure): UpstreamResponse {
  return { status: failure.status, headers: failure.headers, body: Readable.from([Buffer.from(failure.text)]) };
}
