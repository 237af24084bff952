import { GatewayError, readUpstreamJson, type CustomHandler, type RequestContext, type UpstreamRequest, type UpstreamResponse } from '@gateway/core';
import { THINKING_SUFFIX } from './apply-claude-defaults';

export interface OpenAiModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  display_name?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An Anthropic model list (`{data: [{id, display_name, created_at}]}`) → the OpenAI list shape, each model followed
 * by its `-thinking` variant, then the operator's extra ids not already listed.
 */
export function toOpenAiModelList(body: unknown, extra: readonly string[], owner: string): { object: 'list'; data: OpenAiModel[] } {
  if (!isRecord(body) || !Array.isArray(body.data)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream model list is not an Anthropic list');
  const data: OpenAiModel[] = [];
  const seen = new Set<string>();
  const add = (model: OpenAiModel): void => {
    if (seen.has(model.id)) return;
    seen.add(model.id);
    data.push(model);
  };
  for (const item of body.data) {
    if (!isRecord(item) || typeof item.id !== 'string') continue;
    const created = typeof item.created_at === 'string' ? Math.floor(Date.parse(item.created_at) / 1000) : 0;
    const base = { object: 'model' as const, created: Number.isFinite(created) ? created : 0, owned_by: 'anthropic' };
    const name = typeof item.display_name === 'string' ? item.display_name : undefined;
    add({ id: item.id, ...base, ...(name ? { display_name: name } : {}) });
    if (!item.id.endsWith(THINKING_SUFFIX)) add({ id: `${item.id}${THINKING_SUFFIX}`, ...base, ...(name ? { display_name: `${name} (thinking)` } : {}) });
  }
  for (const id of extra) add({ id, object: 'model', created: 0, owned_by: owner });
  return { object: 'list', data };
}

/** GET /v1/models: the upstream's list (one page of up to 1000) through the credential rotation. */
export function createListClaudeModels(
  call: (request: UpstreamRequest, ctx: RequestContext) => Promise<UpstreamResponse>,
  anthropicVersion: string,
  extra: readonly string[],
): CustomHandler {
  return async (_request, ctx) => {
    const upstream = await call(
      { mode: 'passthrough', format: 'other', method: 'GET', path: '/v1/models?limit=1000', headers: { accept: 'application/json', 'anthropic-version': anthropicVersion }, stream: false },
      ctx,
    );
    const parsed = await readUpstreamJson(upstream, 8 * 1024 * 1024, 'the model list');
    return { status: 200, json: toOpenAiModelList(parsed, extra, ctx.platform) };
  };
}
