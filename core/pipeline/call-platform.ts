import { classifyUpstreamFailure } from '../errors/classify-upstream-failure';
import { GatewayError } from '../errors/gateway-error';
import type { GatewayHooks } from '../hooks/gateway-hooks';
import type { RequestContext, UpstreamFailure, UpstreamRequest, UpstreamResponse } from '../hooks/plugin-api';
import { readUpstreamFailure } from '../upstream/read-upstream-failure';
import { releaseBody } from '../upstream/release-body';
import { toWireRequest } from './to-wire-request';

/**
 * Runs the platform's requestTransform taps, reduces the result to its bytes, and runs the upstreamCall taps with
 * those. A non-2xx answer is read, classified with the platform's errorClassify taps (core's generic reading as
 * fallback) and thrown as a GatewayError.
 */
export async function callPlatform(hooks: GatewayHooks, request: UpstreamRequest, ctx: RequestContext): Promise<UpstreamResponse> {
  // Returned, not awaited: this frame holds `request` (the parsed body) and would keep it for the whole upstream call.
  return sendToPlatform(hooks, toWireRequest(await shapeRequest(hooks, request, ctx), ctx), ctx);
}

/** The platform's requestTransform taps, in stage order. */
async function shapeRequest(hooks: GatewayHooks, request: UpstreamRequest, ctx: RequestContext): Promise<UpstreamRequest> {
  const transform = hooks.requestTransform.get(ctx.platform);
  return transform ? transform.promise(request, ctx) : request;
}

/**
 * The platform's upstreamCall taps; a non-2xx answer becomes a thrown, classified GatewayError. Once the taps have
 * settled, no retry needs the request's bytes: a large body is released then (see releaseBody).
 */
async function sendToPlatform(hooks: GatewayHooks, request: UpstreamRequest, ctx: RequestContext): Promise<UpstreamResponse> {
  const caller = hooks.upstreamCall.get(ctx.platform);
  let response: UpstreamResponse | undefined;
  try {
    response = caller ? await caller.promise(request, ctx) : undefined;
  } finally {
    releaseBody(request.body);
  }
  if (!response) throw new GatewayError('GW_INTERNAL', `platform "${ctx.platform}" has no upstream caller`);
  if (response.status >= 200 && response.status < 300) return response;
  throw await readFailure(hooks, response, ctx);
}

export async function readFailure(hooks: GatewayHooks, response: UpstreamResponse, ctx: RequestContext): Promise<GatewayError> {
  return classifyFailure(hooks, await readUpstreamFailure(response), ctx);
}

export function classifyFailure(hooks: GatewayHooks, failure: UpstreamFailure, ctx: RequestContext): GatewayError {
  const classified = hooks.errorClassify.get(ctx.platform)?.call(failure, ctx);
  return classified ?? classifyUpstreamFailure(failure);
}
