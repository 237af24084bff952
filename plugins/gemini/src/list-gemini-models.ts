import { GatewayError, readUpstreamBody, type CustomHandler, type RequestContext, type UpstreamRequest } from '@gateway/core';
import type { GeminiCaller } from './create-gemini-caller';

/** A model of the Gemini `models.list` answer (the fields the lists read). */
interface GeminiModel {
  name: string;
  displayName?: string;
  supportedGenerationMethods?: string[];
  thinking?: boolean;
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

export interface ModelListSettings {
  apiVersion: string;
  /** The operator's extra model ids (`models` in the platform config). */
  extraModels: readonly string[];
}

/**
 * `GET /{key}/v1/models` (OpenAI list shape) and `GET /{key}/v1beta/models` (the Gemini list), both from the
 * upstream's `models.list` with the platform's keys, plus the operator's extra models.
 */
export function createGeminiModelLists(settings: ModelListSettings, call: GeminiCaller): { openAi: CustomHandler; native: CustomHandler } {
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

  return {
    /** Every upstream model, a `-thinking` variant of each thinking model, then the extras. */
    async openAi(_request, ctx) {
      const data: Array<{ id: string; object: 'model'; created: number; owned_by: string }> = [];
      const add = (id: string, ownedBy: string): void => {
        if (!data.some((model) => model.id === id)) data.push({ id, object: 'model', created: 0, owned_by: ownedBy });
      };
      let pageToken: string | undefined;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const query = new URLSearchParams({ pageSize: String(PAGE_SIZE), ...(pageToken ? { pageToken } : {}) });
        const { models, nextPageToken } = await fetchPage(ctx, query);
        for (const model of models) {
          const id = model.name.replace(/^models\//, '');
          add(id, 'google');
          if (model.thinking === true && Array.isArray(model.supportedGenerationMethods) && model.supportedGenerationMethods.includes('generateContent')) add(`${id}-thinking`, 'google');
        }
        pageToken = nextPageToken;
        if (!pageToken) break;
      }
      for (const id of settings.extraModels) add(id, ctx.platform);
      return { status: 200, json: { object: 'list', data } };
    },

    /** The upstream page as it is (the client's pageSize/pageToken forwarded); the extras join the last page. */
    async native(_request, ctx) {
      const query = new URLSearchParams();
      for (const name of ['pageSize', 'pageToken']) if (ctx.query[name]) query.set(name, ctx.query[name]);
      const page = await fetchPage(ctx, query);
      if (!page.nextPageToken) {
        const known = new Set(page.models.map((model) => model.name));
        for (const id of settings.extraModels) {
          const name = id.startsWith('models/') ? id : `models/${id}`;
          if (!known.has(name)) page.models.push({ name, displayName: id, supportedGenerationMethods: ['generateContent', 'countTokens'] });
        }
      }
      return { status: 200, json: page };
    },
  };
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
  return {
    ...(page as Record<string, unknown>),
    models: models as GeminiModel[],
    ...(typeof page.nextPageToken === 'string' && page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
  };
}
