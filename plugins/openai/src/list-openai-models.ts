import { createModelsHandler, isGatewayError, openAiModelCards, withExtraModels, type CustomHandler, type ModelCard, type PlatformBaseOptions } from '@gateway/core';
import type { OpenAiCaller } from './call-openai';

/**
 * The models endpoints: the upstream's list plus the operator's extra `models`. An upstream failure reaches the
 * client as chat's would: its message, type, code and `retry-after` kept, keys masked. A service with no usable list
 * (404, or a list of another shape) is where an operator lists its models: those are then the list.
 */
export function createOpenAiModels(options: Pick<PlatformBaseOptions, 'models'>, call: OpenAiCaller): CustomHandler {
  const extra = options.models ?? [];
  return createModelsHandler({
    async list(ctx) {
      let cards: ModelCard[];
      try {
        cards = openAiModelCards(await call.json(ctx, { method: 'GET', path: '/v1/models' }));
      } catch (error) {
        if (extra.length === 0 || !hasNoList(error)) throw error;
        ctx.log.warn('upstream model list unavailable; listing the configured models only', { reason: error instanceof Error ? error.message : String(error) });
        cards = [];
      }
      return withExtraModels(cards, extra, ctx.platform);
    },
  });
}

/** The upstream serves no model list the gateway can read: no such endpoint, or another shape than OpenAI's. */
function hasNoList(error: unknown): boolean {
  return isGatewayError(error) && (error.code === 'GW_UPSTREAM_BAD_RESPONSE' || [404, 405, 501].includes(error.status));
}
