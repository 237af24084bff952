import { createModelsHandler, openAiModelCards, withExtraModels, type CustomHandler, type PlatformBaseOptions } from '@gateway/core';
import type { OpenAiCaller } from './call-openai';

/**
 * The models endpoints: the upstream's list plus the operator's extra `models`. An upstream failure reaches the
 * client as chat's would: its message, type, code and `retry-after` kept, keys masked.
 */
export function createOpenAiModels(options: Pick<PlatformBaseOptions, 'models'>, call: OpenAiCaller): CustomHandler {
  return createModelsHandler({
    async list(ctx) {
      const cards = openAiModelCards(await call.json(ctx, { method: 'GET', path: '/v1/models' }));
      return withExtraModels(cards, options.models ?? [], ctx.platform);
    },
  });
}
