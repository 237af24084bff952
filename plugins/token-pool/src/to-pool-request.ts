import { CODECS, type RequestContext, type UpstreamRequest } from '@gateway/core';
import { parsePoolModel } from './parse-pool-model';

export interface PoolRequestSettings {
  premiumModels: ReadonlySet<string>;
  /** The upstream's own model names (see upstream-model-names.ts): never cut into a base and suffixes. */
  upstreamModels?: ReadonlySet<string>;
  /** Merged into the upstream body for `-thinking` models. */
  thinking: Readonly<Record<string, unknown>>;
}

/**
 * requestTransform: the model's suffixes come off and `-thinking` merges the `thinking` fields in (a field the
 * client set itself wins). On the native path the client's bytes go upstream untouched unless the model name
 * had to change; translated requests are encoded here, because the thinking fields belong to the wire body.
 */
export function toPoolRequest(request: UpstreamRequest, settings: PoolRequestSettings, ctx: Pick<RequestContext, 'log'>): UpstreamRequest {
  if (request.mode === 'passthrough') {
    const json = request.json;
    if (!json || typeof json.model !== 'string') return request;
    const model = parsePoolModel(json.model, settings.premiumModels, settings.upstreamModels);
    if (model.upstreamModel === json.model && !model.thinking) return request;
    const body = { ...json, model: model.upstreamModel };
    // A client that switched reasoning off itself keeps it off: none of the other thinking fields either.
    const thinking = model.thinking && json.reasoning_effort !== 'none';
    return { ...request, body: undefined, json: thinking ? withDefaults(body, settings.thinking) : body };
  }
  if (!request.unified) return request;
  const model = parsePoolModel(request.unified.model, settings.premiumModels, settings.upstreamModels);
  const unified = { ...request.unified, model: model.upstreamModel };
  const { value, warnings } = CODECS['chat-completions'].encodeRequest(unified);
  if (warnings.length > 0) ctx.log.debug('translation dropped fields', { warnings });
  // A client that switched reasoning off explicitly (e.g. `thinking: {type: "disabled"}`) keeps it off: the body says
  // `reasoning_effort: "none"`, and no other thinking field is merged in.
  const thinking = model.thinking && unified.reasoning?.enabled !== false;
  return { ...request, unified, json: thinking ? withDefaults(value, settings.thinking) : value };
}

function withDefaults(body: Record<string, unknown>, defaults: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out = { ...body };
  for (const [key, value] of Object.entries(defaults)) if (!(key in out)) out[key] = value;
  return out;
}
