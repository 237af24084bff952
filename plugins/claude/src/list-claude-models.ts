import {
  createModelsHandler,
  GatewayError,
  readUpstreamJson,
  withExtraModels,
  type CustomHandler,
  type ModelCard,
  type RequestContext,
  type UpstreamRequest,
  type UpstreamResponse,
} from '@gateway/core';
import { THINKING_SUFFIX } from './apply-claude-defaults';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An Anthropic model list (`{data: [{id, display_name, created_at}]}`) → cards, each followed by its `-thinking` variant. */
export function claudeModelCards(body: unknown): ModelCard[] {
  if (!isRecord(body) || !Array.isArray(body.data)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream model list is not an Anthropic list');
  const cards: ModelCard[] = [];
  for (const item of body.data) {
    if (!isRecord(item) || typeof item.id !== 'string') continue;
    const seconds = typeof item.created_at === 'string' ? Math.floor(Date.parse(item.created_at) / 1000) : Number.NaN;
    const created = Number.isFinite(seconds) ? seconds : 0;
    const name = typeof item.display_name === 'string' ? item.display_name : undefined;
    cards.push({ id: item.id, ownedBy: 'anthropic', created, ...(name ? { displayName: name } : {}), native: { dialect: 'messages', fields: item } });
    if (!item.id.endsWith(THINKING_SUFFIX)) {
      cards.push({ id: `${item.id}${THINKING_SUFFIX}`, ownedBy: 'anthropic', created, ...(name ? { displayName: `${name} (thinking)` } : {}), variantOf: item.id });
    }
  }
  return cards;
}

/**
 * The models endpoints: the upstream's list (one page of up to 1000) through the credential rotation, plus the
 * operator's extras. `-thinking` variants are not offered to Anthropic clients: `/v1/messages` is a passthrough.
 */
export function createClaudeModels(
  call: (request: UpstreamRequest, ctx: RequestContext) => Promise<UpstreamResponse>,
  anthropicVersion: string,
  extra: readonly string[],
): CustomHandler {
  return createModelsHandler({
    variantDialects: ['openai', 'gemini'],
    async list(ctx) {
      const upstream = await call(
        { mode: 'passthrough', format: 'other', method: 'GET', path: '/v1/models?limit=1000', headers: { accept: 'application/json', 'anthropic-version': anthropicVersion }, stream: false },
        ctx,
      );
      const parsed = await readUpstreamJson(upstream, 8 * 1024 * 1024, 'the model list');
      return withExtraModels(claudeModelCards(parsed), extra, ctx.platform);
    },
  });
}
