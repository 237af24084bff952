import { createSearchHandler, type CustomHandler, type Store } from '@gateway/core';
import type { OpenAiCaller } from './call-openai';
import { fromResponsesSearch } from './from-responses-search';
import { toResponsesSearchRequest } from './to-responses-search';

/** What the Responses `web_search` tool can do for a search call. */
const SERVED_COMMANDS = ['search_query', 'open', 'find'] as const;

export interface OpenAiSearchOptions {
  mode: 'responses' | 'passthrough';
  searchModel?: string;
  store: Store;
  platform: string;
}

/** `POST /v1/alpha/search`: answered through the Responses API's web search, or forwarded as it is. */
export function createOpenAiSearchHandler(call: OpenAiCaller, options: OpenAiSearchOptions): CustomHandler {
  if (options.mode === 'passthrough') {
    return async (request, ctx) => {
      const upstream = await call.sendOk(ctx, { method: 'POST', path: '/v1/alpha/search', json: request.body });
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'content-length']) {
        const value = upstream.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      return { status: upstream.status, stream: upstream.body, headers };
    };
  }
  return createSearchHandler({
    store: options.store,
    platform: options.platform,
    serves: SERVED_COMMANDS,
    async answer(search, ctx) {
      const body = toResponsesSearchRequest(search, options.searchModel ?? search.model);
      return fromResponsesSearch(await call.json(ctx, { method: 'POST', path: '/v1/responses', json: body }));
    },
  });
}
