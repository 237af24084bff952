import { createModelsHandler, GatewayError, readUpstreamBody, withExtraModels, type CustomHandler, type ModelCard, type RequestContext, type UpstreamRequest } from '@gateway/core';
import type { GeminiCaller } from './create-gemini-caller';

/** A model of the Gemini `models.list` answer (the fields the lists read). */
interface GeminiModel {
  name: string;
  displayName?: string;
  supportedGenerationMethods?: unknown;
  thinking?: unknown;
  [field: string]: unknown;
}

interface GeminiModelPage {
  models: GeminiModel[];
  nextPageToken?: string;
}

/** The upstream's page size cap; a few pages cover every model the API has. */
const PAGE_SIZE = 1000;
const MAX_PAGES = 10;
const LIST_BODY_LIMIT = 8 * 1024 * 1024;
const THINKING_SUFFIX = '-thinking';

export interface ModelListSettings {
  apiVersion: string;
  /** The operator's extra model ids (`models` in the platform config). */
  extraModels: readonly string[];
}

/**
 * Upstream models → cards: each keeps its Gemini object for Gemini clients; a thinking model that generates
 * content is followed by its `-thinking` variant (thought summaries on, see toGeminiVariant).
 */
export function geminiModelCards(models: readonly GeminiModel[]): ModelCard[] {
  const cards: ModelCard[] = [];
  for (const model of models) {
    const id = model.name.replace(/^models\//, '');
    const displayName = typeof model.displayName === 'string' ? model.displayName : undefined;
    cards.push({ id, ownedBy: 'google', ...(displayName ? { displayName } : {}), native: { dialect: 'gemini', fields: model } });
    const generates = Array.isArray(model.supportedGenerationMethods) && model.supportedGenerationMethods.includes('generateContent');
    if (model.thinking === true && generates && !id.endsWith(THINKING_SUFFIX)) {
      cards.push({ id: `${id}${THINKING_SUFFIX}`, ownedBy: 'google', ...(displayName ? { displayName: `${displayName} (thinking)` } : {}), variantOf: id });
    }
  }
  return cards;
}

/**
 * The models endpoints, from every page of the upstream's `models.list` (with the platform's keys) plus the
 * operator's extras. `-thinking` variants are not offered to Gemini clients: the native path is a passthrough.
 */
export function createGeminiModels(settings: ModelListSettings, call: GeminiCaller): CustomHandler {
  const fetchPage = async (ctx: RequestContext, query: URLSearchParams): Promise<GeminiModelPage> => {
    const request: UpstreamRequest = {
      mode: 'passthrough',
      format: 'other',
      method: 'GET',
      path: `/${settings.apiVersion}/models?${query.toString()}`,
      headers: { accept: 'application/json' },
      stream: false,
    };
    const response = await call(request, ctx);
    return parseModelPage((await readUpstreamBody(response, LIST_BODY_LIMIT)).toString('utf8'));
  };

  return createModelsHandler({
    variantDialects: ['openai', 'messages'],
    async list(ctx) {
      const models: GeminiModel[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const answer = await fetchPage(ctx, new URLSearchParams({ pageSize: String(PAGE_SIZE), ...(pageToken ? { pageToken } : {}) }));
        models.push(...answer.models);
        pageToken = answer.nextPageToken;
        if (!pageToken) break;
      }
      return withExtraModels(geminiModelCards(models), settings.extraModels, ctx.platform);
    },
  });
}

function parseModelPage(text: string): GeminiModelPage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const page = typeof parsed === 'object' && parsed !== null ? (parsed as { models?: unknown; nextPageToken?: unknown }) : undefined;
  const models = page?.models ?? [];
  if (!page || !Array.isArray(models) || !models.every((m: unknown) => typeof m === 'object' && m !== null && typeof (m as { name?: unknown }).name === 'string')) {
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream model list is not a Gemini models.list answer');
  }
  return { models: models as GeminiModel[], ...(typeof page.nextPageToken === 'string' && page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
}
