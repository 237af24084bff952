import { GatewayError } from '../errors/gateway-error';
import type { CustomHandler, RequestContext } from '../hooks/plugin-api';
import { toAnthropicModel, toGeminiModel, toOpenAiModel } from './encode-model';
import type { ModelCard, ModelDialect } from './model-card';
import { modelDialect } from './model-dialect';
import { anthropicModelPage, geminiModelPage } from './page-models';

export interface ModelsHandlerOptions {
  /** The platform's models, fetched per call (the upstream's list is the truth; nothing is cached). */
  list(ctx: RequestContext): Promise<ModelCard[]>;
  /** Dialects whose generation endpoint understands the variant suffixes (default: all). */
  variantDialects?: readonly ModelDialect[];
}

/**
 * Every models endpoint of a platform (`GET /v1/models`, `/v1/models/{id}`, `/v1beta/models`,
 * `/v1beta/models/{id}`), answered in the dialect of the calling SDK (see modelDialect), from the plugin's one list.
 */
export function createModelsHandler(options: ModelsHandlerOptions): CustomHandler {
  const variantDialects = new Set(options.variantDialects ?? ['openai', 'messages', 'gemini']);
  return async (_request, ctx) => {
    const dialect = modelDialect(ctx.endpoint, ctx.headers, ctx.query);
    const listed = distinctModels(await options.list(ctx));
    const models = variantDialects.has(dialect) ? listed : listed.filter((card) => card.variantOf === undefined);
    const wanted = ctx.params.model;
    if (wanted !== undefined) {
      const id = dialect === 'gemini' ? wanted.replace(/^models\//, '') : wanted;
      const card = models.find((model) => model.id === id);
      if (!card) throw new GatewayError('GW_NOT_FOUND', `model "${id}" is not served by platform "${ctx.platform}"`, { param: 'model', upstreamCode: 'model_not_found' });
      return { status: 200, json: ENCODERS[dialect](card) };
    }
    return { status: 200, json: LISTS[dialect](models, ctx.query) };
  };
}

const ENCODERS: Record<ModelDialect, (card: ModelCard) => Record<string, unknown>> = {
  openai: toOpenAiModel,
  messages: toAnthropicModel,
  gemini: toGeminiModel,
};

const LISTS: Record<ModelDialect, (models: ModelCard[], query: Readonly<Record<string, string>>) => unknown> = {
  /** OpenAI's list has no paging: every model at once. */
  openai: (models) => ({ object: 'list', data: models.map(toOpenAiModel) }),
  messages: (models, query) => {
    const page = anthropicModelPage(models, query);
    return { data: page.items.map(toAnthropicModel), has_more: page.hasMore, first_id: page.items[0]?.id ?? null, last_id: page.items.at(-1)?.id ?? null };
  },
  gemini: (models, query) => {
    const page = geminiModelPage(models, query);
    return { models: page.items.map(toGeminiModel), ...(page.nextOffset !== undefined ? { nextPageToken: String(page.nextOffset) } : {}) };
  },
};

/**
 * Each id once, where it first appears (an upstream may list one twice); a model the upstream lists wins over a
 * gateway variant of the same name (`x-thinking` listed by the upstream is its own model).
 */
export function distinctModels(models: readonly ModelCard[]): ModelCard[] {
  const listed = new Set(models.filter((model) => model.variantOf === undefined).map((model) => model.id));
  const seen = new Set<string>();
  const distinct: ModelCard[] = [];
  for (const model of models) {
    if (seen.has(model.id) || (model.variantOf !== undefined && listed.has(model.id))) continue;
    seen.add(model.id);
    distinct.push(model);
  }
  return distinct;
}

/** The operator's extra model ids (`models` in the platform config) after the listed ones, each once. */
export function withExtraModels(models: readonly ModelCard[], extra: readonly string[], owner: string): ModelCard[] {
  const known = new Set(models.map((model) => model.id));
  const added = extra.filter((id, index) => !known.has(id) && extra.indexOf(id) === index).map((id) => ({ id, ownedBy: owner }));
  return [...models, ...added];
}
