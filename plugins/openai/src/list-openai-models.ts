import { GatewayError, readUpstreamBody, sendUpstreamRequest, type CustomHandler, type PlatformBaseOptions } from '@gateway/core';

interface ModelList {
  object: 'list';
  data: Array<{ id: string; object: string; created?: number; owned_by?: string }>;
}

/** GET /v1/models: the upstream's list plus the operator's extra `models`, in the OpenAI list shape. */
export function createListOpenAiModels(options: PlatformBaseOptions, nextKey: () => string): CustomHandler {
  return async (_request, ctx) => {
    const upstream = await sendUpstreamRequest(
      { mode: 'passthrough', format: 'other', method: 'GET', path: '/v1/models', headers: { accept: 'application/json' }, stream: false },
      ctx,
      options,
      { authorization: `Bearer ${nextKey()}` },
    );
    const text = (await readUpstreamBody(upstream, 8 * 1024 * 1024)).toString('utf8');
    if (upstream.status >= 400) throw new GatewayError('GW_UPSTREAM_ERROR', `upstream model list failed with HTTP ${upstream.status}`, { status: upstream.status });
    const list = parseModelList(text);
    const known = new Set(list.data.map((model) => model.id));
    for (const id of options.models ?? []) {
      if (!known.has(id)) list.data.push({ id, object: 'model', created: 0, owned_by: ctx.platform });
    }
    return { status: 200, json: list };
  };
}

function parseModelList(text: string): ModelList {
  try {
    const parsed = JSON.parse(text) as Partial<ModelList>;
    if (Array.isArray(parsed.data)) return { object: 'list', data: parsed.data };
  } catch {
    // fall through to the error below
  }
  throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream model list is not an OpenAI list');
}
