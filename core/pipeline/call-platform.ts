import { SAME_CREDENTIAL_STATE } from '../credentials/call-with-credentials';
import { classifyUpstreamFailure } from '../errors/classify-upstream-failure';
import { GatewayError, isGatewayError } from '../errors/gateway-error';
import type { GatewayHooks } from '../hooks/gateway-hooks';
import type { RequestContext, UpstreamFailure, UpstreamRequest, UpstreamResponse } from '../hooks/plugin-api';
import { readUpstreamFailure } from '../upstream/read-upstream-failure';
import { releaseBody } from '../upstream/release-body';
import { optionalFieldsIn, refusedFields, withoutFields, type OptionalField } from './drop-refused-fields';
import { toWireRequest } from './to-wire-request';
import { isRememberableModel } from '../models-api/model-name-bounds';
import { OUTPUT_CAP_STATE, outputCapIn, withOutputLimit } from './clamp-output-limit';

/**
 * Runs the platform's requestTransform taps, reduces the result to its bytes, and runs the upstreamCall taps with
 * those. A non-2xx answer is read, classified with the platform's errorClassify taps (core's generic reading as
 * fallback) and thrown as a GatewayError.
 */
export async function callPlatform(hooks: GatewayHooks, request: UpstreamRequest, ctx: RequestContext): Promise<UpstreamResponse> {
  // The platform's requestTransform taps, in stage order; a platform without any is not waited for.
  const transform = hooks.requestTransform.get(ctx.platform);
  const shaped = transform ? await transform.promise(request, ctx) : request;
  // Returned, not awaited: this frame holds `request` (the parsed body) and would keep it for the whole upstream call.
  return sendToPlatform(hooks, toWireRequest(shaped, ctx), ctx);
}

/**
 * The platform's upstreamCall taps; a non-2xx answer becomes a thrown, classified GatewayError. Once the taps have
 * settled, no retry needs the request's bytes: a large body is released then (see releaseBody).
 */
async function sendToPlatform(hooks: GatewayHooks, request: UpstreamRequest, ctx: RequestContext): Promise<UpstreamResponse> {
  const knownCap = capMemo.get(hooks, ctx);
  let sent = request;
  const capped = knownCap !== undefined ? withOutputLimit(request, knownCap) : undefined;
  if (capped) {
    sent = capped;
    ctx.state.set(OUTPUT_CAP_STATE, knownCap);
  }
  try {
    // What has been lowered already: the model's cap once, then the room left by the input once (DeepSeek states its
    // cap, and then, at that cap, that the input leaves less).
    let loweredToCap = false;
    let loweredToRoom = false;
    for (;;) {
      let failure: GatewayError;
      try {
        const response = await callWithOptionalFields(hooks, sent, ctx);
        if (response.status >= 200 && response.status < 300) return response;
        failure = await readFailure(hooks, response, ctx);
      } catch (error) {
        if (!isGatewayError(error)) throw error;
        failure = error;
      }
      // An output limit above the model's cap (Claude Code asks 32000 of gpt-4o), or above the room the input leaves in
      // the context window (vLLM): asked again at what the refusal states; at a model's cap from the start for its
      // later calls.
      const stated = failure.status === 400 ? outputCapIn(failure.message) : undefined;
      const fresh = stated !== undefined && !(stated.lasting ? loweredToCap : loweredToRoom);
      const lower = fresh ? withOutputLimit(sent, stated.cap) : undefined;
      if (stated === undefined || lower === undefined) throw failure;
      if (stated.lasting) {
        loweredToCap = true;
        capMemo.set(hooks, ctx, stated.cap);
      } else {
        loweredToRoom = true;
      }
      ctx.state.set(OUTPUT_CAP_STATE, stated.cap);
      ctx.log.debug('upstream refused the output limit of the translation; sent again at its cap', { cap: stated.cap, lasting: stated.lasting });
      sent = lower;
    }
  } finally {
    releaseBody(request.body);
  }
}

/** The platform's upstreamCall taps, answering refusals of optional fields (see callDroppingRefusedFields). */
function callWithOptionalFields(hooks: GatewayHooks, request: UpstreamRequest, ctx: RequestContext): Promise<UpstreamResponse> {
  const optional = optionalFieldsIn(request);
  return optional.length > 0 ? callDroppingRefusedFields(hooks, request, optional, ctx) : callUpstream(hooks, request, ctx);
}

/**
 * What upstreams said of a platform's model (the optional fields it refuses, its output cap), per gateway (its hooks),
 * platform and client model, so that later calls do not each cost a refused call. In memory only, and bounded: it
 * saves time, and a model that learns more is asked so only until the next restart. The key is made only once the
 * gateway has learned something: the request path pays a map lookup.
 */
function createModelMemo<T>() {
  const byGateway = new WeakMap<GatewayHooks, Map<string, T>>();
  const keyOf = (ctx: RequestContext): string => `${ctx.platform}\u0000${ctx.model ?? ''}`;
  return {
    get(hooks: GatewayHooks, ctx: RequestContext): T | undefined {
      return byGateway.get(hooks)?.get(keyOf(ctx));
    },
    set(hooks: GatewayHooks, ctx: RequestContext, value: T): void {
      // A model name no model has (a client's megabytes) is not kept: the bound counts entries, not their size.
      if (ctx.model !== undefined && !isRememberableModel(ctx.model)) return;
      let memo = byGateway.get(hooks);
      if (!memo) byGateway.set(hooks, (memo = new Map()));
      const key = keyOf(ctx);
      if (memo.size >= MODEL_MEMO_LIMIT && !memo.has(key)) memo.clear();
      memo.set(key, value);
    },
  };
}

const MODEL_MEMO_LIMIT = 1000;
/** Optional fields refused as such; see callDroppingRefusedFields. */
const refusedMemo = createModelMemo<readonly OptionalField[]>();
/** Output caps stated in refusals; see outputCapIn. */
const capMemo = createModelMemo<number>();
const REFUSED_VALUE = /\bvalue\b|does not support '/i;

/**
 * A translated call carrying fields some upstreams refuse (see OPTIONAL_FIELDS), made again without those the
 * upstream named in its refusal, whether the platform's caller answers the 4xx or throws it classified. Fields this
 * platform's model refused before are left out from the start.
 */
async function callDroppingRefusedFields(
  hooks: GatewayHooks,
  request: UpstreamRequest,
  optional: readonly OptionalField[],
  ctx: RequestContext,
): Promise<UpstreamResponse> {
  const known = refusedMemo.get(hooks, ctx)?.filter((field) => optional.includes(field)) ?? [];
  // Upstreams refuse one field at a time: each answer may name another, up to one call more per field.
  let sent = known.length > 0 ? withoutFields(request, known) : request;
  let carried = known.length > 0 ? optional.filter((field) => !known.includes(field)) : optional;
  let again = false;
  for (;;) {
    let refused: OptionalField[];
    let said: string;
    try {
      const response = await callUpstream(hooks, sent, ctx, again);
      if (response.status < 400 || carried.length === 0) return response;
      const failure = await readUpstreamFailure(response);
      refused = refusedFields(carried, failure);
      if (refused.length === 0) throw classifyFailure(hooks, failure, ctx);
      said = failure.text;
    } catch (error) {
      refused = isGatewayError(error) ? refusedFields(carried, { status: error.status, text: error.message }) : [];
      if (refused.length === 0) throw error;
      said = (error as GatewayError).message;
    }
    ctx.log.debug('upstream refused fields of the translation; sent again without them', { fields: refused.map((field) => field.name) });
    // A value refused ("Unsupported value: 'reasoning_effort' does not support 'none'") says nothing of the others the
    // client may ask for: only the field refused as such is left out of later calls.
    const lasting = REFUSED_VALUE.test(said) ? [] : refused.filter((field) => field.lasting?.(said) ?? true);
    if (lasting.length > 0) refusedMemo.set(hooks, ctx, [...new Set([...(refusedMemo.get(hooks, ctx) ?? []), ...lasting])]);
    const stillSent: OptionalField[] = [];
    sent = withoutFields(sent, refused, said, stillSent);
    carried = carried.filter((field) => !refused.includes(field) || stillSent.includes(field));
    again = true;
  }
}

/** The platform's upstreamCall taps, once; `again` (a call made again without refused fields), with the same credential. */
async function callUpstream(hooks: GatewayHooks, request: UpstreamRequest, ctx: RequestContext, again = false): Promise<UpstreamResponse> {
  if (again) ctx.state.set(SAME_CREDENTIAL_STATE, ctx.state.get('credential'));
  let answer: UpstreamResponse | undefined;
  try {
    answer = await hooks.upstreamCall.get(ctx.platform)?.promise(request, ctx);
  } finally {
    if (again) ctx.state.delete(SAME_CREDENTIAL_STATE);
  }
  if (!answer) throw new GatewayError('GW_INTERNAL', `platform "${ctx.platform}" has no upstream caller`);
  return answer;
}

export async function readFailure(hooks: GatewayHooks, response: UpstreamResponse, ctx: RequestContext): Promise<GatewayError> {
  return classifyFailure(hooks, await readUpstreamFailure(response), ctx);
}

export function classifyFailure(hooks: GatewayHooks, failure: UpstreamFailure, ctx: RequestContext): GatewayError {
  const classified = hooks.errorClassify.get(ctx.platform)?.call(failure, ctx);
  return classified ?? classifyUpstreamFailure(failure);
}
