import { isRememberableModel, modelForLog, parseToolJson, type RequestContext, type UpstreamRequest } from '@gateway/core';
import { ADDED_DEFAULT_SAFETY, CIVIC_INTEGRITY, type SafetySettings } from './create-safety-settings';
import { isRecord } from './gemini-json';

/** `ctx.state` key: the gateway translated sampling penalties into the request (not a Gemini client's own). */
export const TRANSLATED_PENALTIES = 'gemini.translatedPenalties';

/**
 * Something the gateway itself put into a request that an upstream may refuse with a 400, and the same request
 * without it. A Gemini client's own fields are never repaired: it gets the 400 it would get from Gemini.
 */
export interface RefusalRepair {
  /** Whether the gateway added this thing to the request. */
  added(ctx: RequestContext): boolean;
  /** Whether a 400 body is the upstream refusing it. */
  refused(body: string): boolean;
  /** The request without it; undefined when it has none left. */
  without(request: UpstreamRequest): UpstreamRequest | undefined;
  /** Whether an earlier call to this request's model was refused it: it then goes without from the start. */
  refusedBefore(ctx: RequestContext): boolean;
  /** Said (and remembered) once the refusal is seen. */
  onRefused(ctx: RequestContext): void;
}

/** Models remembered as refusing a repair's field; bounded, as model names come from clients. */
const MAX_REMEMBERED_MODELS = 1000;

export function createRefusalRepairs(deps: { platform: string; safety: SafetySettings }): readonly RefusalRepair[] {
  // A refused penalty is the model's: every later request to it would cost a refused call first.
  const refusingPenalties = new Set<string>();
  return [
    {
      // The all-off default carries the deprecated civic-integrity category, which some upstreams no longer take.
      added: (ctx) => ctx.state.get(ADDED_DEFAULT_SAFETY) === true,
      refused: (body) => body.includes(CIVIC_INTEGRITY),
      // Remembered by the safety settings themselves, which stop adding it.
      refusedBefore: () => false,
      without: (request) =>
        withJson(request, (json) => {
          const settings = json.safetySettings;
          if (!Array.isArray(settings)) return undefined;
          const kept = settings.filter((setting: unknown) => !(isRecord(setting) && setting.category === CIVIC_INTEGRITY));
          return kept.length === settings.length ? undefined : { ...json, safetySettings: kept };
        }),
      onRefused(ctx) {
        deps.safety.dropCivic();
        ctx.log.warn('upstream refused the civic-integrity safety category; no longer sent', { platform: deps.platform });
      },
    },
    {
      // Gemini 2.5 and 3 answer "Penalty is not enabled for models/…" to a chat client's presence/frequency penalty.
      added: (ctx) => ctx.state.get(TRANSLATED_PENALTIES) === true,
      refused: (body) => /penalty is not enabled/i.test(body),
      without: (request) =>
        withJson(request, (json) => {
          if (!isRecord(json.generationConfig)) return undefined;
          const { presencePenalty, frequencyPenalty, ...generationConfig } = json.generationConfig;
          return presencePenalty === undefined && frequencyPenalty === undefined ? undefined : { ...json, generationConfig };
        }),
      refusedBefore: (ctx) => ctx.model !== undefined && refusingPenalties.has(ctx.model),
      onRefused(ctx) {
        const model = ctx.model;
        if (isRememberableModel(model)) {
          if (refusingPenalties.size >= MAX_REMEMBERED_MODELS) refusingPenalties.clear();
          refusingPenalties.add(model);
        }
        ctx.log.warn('upstream refused sampling penalties for this model; sent without them from now on', { platform: deps.platform, model: modelForLog(model) });
      },
    },
  ];
}

/** The request with its JSON body changed by `change`; undefined when the body is no JSON object or is unchanged. */
function withJson(request: UpstreamRequest, change: (json: Record<string, unknown>) => Record<string, unknown> | undefined): UpstreamRequest | undefined {
  let parsed: unknown;
  try {
    // Written again whole: tool values keep their numbers' digits (see withExactToolNumbers).
    parsed = request.body ? parseToolJson(request.body.toString('utf8')) : request.json;
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const json = change(parsed);
  return json === undefined ? undefined : { ...request, body: undefined, json };
}
