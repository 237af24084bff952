import {
  sendUpstreamRequest,
  type PlatformBaseOptions,
  type RequestContext,
  type UpstreamFailure,
  type UpstreamRequest,
  type UpstreamResponse,
} from '@gateway/core';
import type { KeyRotation } from './create-key-rotation';

/**
 * The platform's upstreamCall (chat completions, responses, and what is translated to them), with the next healthy
 * key of the rotation; a key that is rate-limited or refused is marked and the call goes to another (see
 * KeyRotation.call). A Responses request that continues a stored response (`previous_response_id`) can only be
 * served by a key of the project that stored it: when the upstream answers that it does not know that response, the
 * other keys are tried in turn, none marked (the keys are fine).
 */
export function createGenerationCaller(options: PlatformBaseOptions, keys: Pick<KeyRotation, 'call'>) {
  return (request: UpstreamRequest, ctx: RequestContext): Promise<UpstreamResponse> =>
    keys.call(ctx, (key) => sendUpstreamRequest(request, ctx, options, { authorization: `Bearer ${key.secret}` }), {
      isOtherKeysBusiness: (failure) => continuesStoredResponse(request) && isUnknownStoredResponse(failure),
    });
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
