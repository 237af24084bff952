import { GatewayError, readUpstreamBody, type CustomHandler, type PlatformBaseOptions } from '@gateway/core';
import type { PoolCaller } from './create-pool-caller';

interface ModelObject {
  id: string;
  object: string;
  created?: number;
  owned_by?: string;
}

const LIST_BODY_LIMIT = 8 * 1024 * 1024;
const VARIANT_SUFFIXES = ['-thinking', '-max'];

/**
 * GET /v1/models: the upstream's list (fetched with a pool token, so a limited or broken token is marked and
 * skipped like on any call) plus the operator's extra `models`, and each model's `-thinking` and `-max` variant.
 */
export function createListPoolModels(options: Pick<PlatformBaseOptions, 'models'>, callPool: PoolCaller): CustomHandler {
  return async (_request, ctx) => {
    const upstream = await callPool(
      { mode: 'passthrough', format: 'other', method: 'GET', path: '/v1/models', headers: { accept: 'application/json' }, stream: false },
      ctx,
    );
    const base = parseModelList((await readUpstreamBody(upstream, LIST_BODY_LIMIT)).toString('utf8'));
    for (const id of options.models ?? []) {
      if (!base.some((model) => model.id === id)) base.push({ id, object: 'model', created: 0, owned_by: ctx.platform });
    }
    const ids = new Set(base.map((model) => model.id));
    const data: ModelObject[] = [];
    for (const model of base) {
      data.push(model);
      for (const suffix of VARIANT_SUFFIXES) {
        const id = `${model.id}${suffix}`;
        if (!model.id.endsWith(suffix) && !ids.has(id)) data.push({ ...model, id });
      }
    }
    return { status: 200, json: { object: 'list', data } };
  };
}

function parseModelList(text: string): ModelObject[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const data = typeof parsed === 'object' && parsed !== null ? (parsed as { data?: unknown }).data : undefined;
  if (!Array.isArray(data) || !data.every(isModelObject)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream model list is not an OpenAI list');
  return data;
}

function isModelObject(value: unknown): value is ModelObject {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';
}
