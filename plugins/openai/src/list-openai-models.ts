import { GatewayError, type CustomHandler, type PlatformBaseOptions } from '@gateway/core';
import type { OpenAiCaller } from './call-openai';

interface ModelEntry {
  id: string;
  object: string;
  created?: number;
  owned_by?: string;
}

interface ModelList {
  object: 'list';
  data: ModelEntry[];
}

/**
 * GET /v1/models: the upstream's list plus the operator's extra `models`, in the OpenAI list shape. An upstream
 * failure reaches the client as chat's would: its message, type, code and `retry-after` kept, keys masked.
 */
export function createListOpenAiModels(options: Pick<PlatformBaseOptions, 'models'>, call: OpenAiCaller): CustomHandler {
  return async (_request, ctx) => {
    const list = toModelList(await call.json(ctx, { method: 'GET', path: '/v1/models' }));
    const known = new Set(list.data.map((model) => model.id));
    for (const id of options.models ?? []) {
      if (!known.has(id)) list.data.push({ id, object: 'model', created: 0, owned_by: ctx.platform });
    }
    return { status: 200, json: list };
  };
}

/** The upstream's answer as a model list; any other shape is the upstream's fault (502), not a crash of ours. */
export function toModelList(answer: unknown): ModelList {
  const data = typeof answer === 'object' && answer !== null ? (answer as { data?: unknown }).data : undefined;
  if (Array.isArray(data) && data.every(isModelEntry)) return { object: 'list', data };
  throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream model list is not an OpenAI list');
}

function isModelEntry(value: unknown): value is ModelEntry {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';
}
