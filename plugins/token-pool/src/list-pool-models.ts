import { createModelsHandler, openAiModelCards, readUpstreamJson, withExtraModels, type CustomHandler, type ModelCard, type PlatformBaseOptions } from '@gateway/core';
import type { PoolCaller } from './create-pool-caller';

const LIST_BODY_LIMIT = 8 * 1024 * 1024;
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
 * The models endpoints: the upstream's list (fetched with a pool token, so a limited or broken token is marked and
 * skipped like on any call) plus the operator's extra `models`, and each model's `-thinking` and `-max` variant.
 * Every client endpoint of the pool understands the variants (chat completions rewrites the model when needed).
 */
export function createPoolModels(options: Pick<PlatformBaseOptions, 'models'>, callPool: PoolCaller): CustomHandler {
  return createModelsHandler({
    async list(ctx) {
      const upstream = await callPool(
        { mode: 'passthrough', format: 'other', method: 'GET', path: '/v1/models', headers: { accept: 'application/json' }, stream: false },
        ctx,
      );
      const cards = openAiModelCards(await readUpstreamJson(upstream, LIST_BODY_LIMIT, 'the model list'));
      return withPoolVariants(withExtraModels(cards, options.models ?? [], ctx.platform));
    },
  });
}
