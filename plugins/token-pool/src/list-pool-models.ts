import { createModelsHandler, isGatewayError, openAiModelCards, readUpstreamJson, withExtraModels, type CustomHandler, type ModelCard, type PlatformBaseOptions, type RequestContext } from '@gateway/core';
import type { PoolCaller } from './create-pool-caller';
import { parsePoolModel } from './parse-pool-model';
import type { UpstreamModelNames } from './upstream-model-names';

const LIST_BODY_LIMIT = 8 * 1024 * 1024;
/** The pool's answers when no token can make the call (all limited, none healthy). */
const NO_TOKEN_CODES: ReadonlySet<string> = new Set(['GW_RATE_LIMITED', 'GW_NO_CREDENTIAL']);
const VARIANT_SUFFIXES = ['-thinking', '-max'];

/**
 * Each model followed by its `-thinking` and `-max` variants, unless it is one. A model the upstream lists under a
 * variant's name wins over the variant (distinctModels in core).
 */
export function withPoolVariants(models: readonly ModelCard[]): ModelCard[] {
  return models.flatMap((model) => [
    model,
    ...VARIANT_SUFFIXES.filter((suffix) => !model.id.endsWith(suffix)).map((suffix) => ({ ...model, id: `${model.id}${suffix}`, variantOf: model.id })),
  ]);
}

/**
 * The card of `wanted` when it is a variant the list does not spell out: suffixes combined (`gpt-x-max-thinking`,
 * either order) on a listed model. The list shows one suffix at a time; a model served by name can still be looked up.
 */
export function combinedVariant(models: readonly ModelCard[], wanted: string, premiumModels: ReadonlySet<string>, upstreamModels: ReadonlySet<string>): ModelCard | undefined {
  if (models.some((model) => model.id === wanted)) return undefined;
  const { upstreamModel } = parsePoolModel(wanted, premiumModels, upstreamModels);
  const base = upstreamModel === wanted ? undefined : models.find((model) => model.id === upstreamModel && model.variantOf === undefined);
  return base ? { ...base, id: wanted, variantOf: base.id } : undefined;
}

/** The upstream's model list, fetched with a pool token (a limited or broken token is marked and skipped as on any call). */
export function createUpstreamModelFetch(callPool: PoolCaller): (ctx: RequestContext) => Promise<ModelCard[]> {
  return async (ctx) => {
    const upstream = await callPool({ mode: 'passthrough', format: 'other', method: 'GET', path: '/v1/models', headers: { accept: 'application/json' }, stream: false }, ctx);
    return openAiModelCards(await readUpstreamJson(upstream, LIST_BODY_LIMIT, 'the model list'));
  };
}

/**
 * The models endpoints: the upstream's list plus the operator's extra `models`, and each model's `-thinking` and
 * `-max` variant (combined ones answer a lookup by id). Every client endpoint of the pool understands the variants
 * (chat completions rewrites the model when needed). Each list read also tells `names` what the upstream serves.
 */
export function createPoolModels(
  options: Pick<PlatformBaseOptions, 'models'>,
  fetchModels: (ctx: RequestContext) => Promise<ModelCard[]>,
  names: UpstreamModelNames,
  premiumModels: ReadonlySet<string>,
): CustomHandler {
  return createModelsHandler({
    async list(ctx) {
      let cards: ModelCard[];
      try {
        cards = await fetchModels(ctx);
        names.record(cards.map((card) => card.id));
      } catch (error) {
        // Every token limited or out of service: the models are still what the upstream last listed and the operator's
        // own (Codex and Claude Code read the list as they start); with neither known, the client is told why.
        if (!isGatewayError(error) || !NO_TOKEN_CODES.has(error.code)) throw error;
        const extra = new Set(options.models ?? []);
        cards = [...names.current()].filter((id) => !extra.has(id)).map((id) => ({ id, ownedBy: ctx.platform }));
        if (cards.length === 0 && extra.size === 0) throw error;
      }
      const models = withPoolVariants(withExtraModels(cards, options.models ?? [], ctx.platform));
      const wanted = ctx.params.model?.replace(/^models\//, '');
      const combined = wanted === undefined ? undefined : combinedVariant(models, wanted, premiumModels, names.current());
      return combined ? [...models, combined] : models;
    },
  });
}
