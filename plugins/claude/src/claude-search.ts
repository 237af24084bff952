import {
  GatewayError,
  buildSearchPrompt,
  createSearchHandler,
  readUpstreamJson,
  searchAnswer,
  type CustomHandler,
  type RequestContext,
  type SearchAnswer,
  type SearchRequest,
  type SearchSource,
  type Store,
  type UpstreamRequest,
  type UpstreamResponse,
} from '@gateway/core';
import { THINKING_SUFFIX } from './apply-claude-defaults';
import { continuePausedAnswer } from './paused-turns/continue-paused-answer';

/** The server-side web search tool can search and read the pages it found; it cannot be pointed at a given page. */
const SERVED_COMMANDS = ['search_query'] as const;
/** The model of a search call that names no Claude model. */
export const DEFAULT_SEARCH_MODEL = 'claude-sonnet-4-6';
export const WEB_SEARCH_TOOL = 'web_search_20250305';
const DEFAULT_MAX_TOKENS = 4096;
const BODY_LIMIT = 16 * 1024 * 1024;

export interface ClaudeSearchDeps {
  call(request: UpstreamRequest, ctx: RequestContext): Promise<UpstreamResponse>;
  anthropicVersion: string;
  store: Store;
  platform: string;
  searchModel?: string;
}

/**
 * `POST /v1/alpha/search` on Claude: one Messages call with the server web search tool answers every query of the
 * call. Results come from the `web_search_tool_result` blocks (url, title), their snippets from the answer's
 * citations (`cited_text`). `encrypted_output` is null: the tool's `encrypted_content` is kept out (it only means
 * something to Anthropic's API in a later Messages turn, which a search client does not send back).
 */
export function createClaudeSearchHandler(deps: ClaudeSearchDeps): CustomHandler {
  return createSearchHandler({
    store: deps.store,
    platform: deps.platform,
    serves: SERVED_COMMANDS,
    async answer(search, ctx) {
      const request = toClaudeSearchRequest(search, deps.searchModel);
      const send = async (json: Record<string, unknown>): Promise<unknown> => {
        const headers = { accept: 'application/json', 'anthropic-version': deps.anthropicVersion };
        const response = await deps.call({ mode: 'passthrough', format: 'other', method: 'POST', path: '/v1/messages', headers, json, stream: false }, ctx);
        return readUpstreamJson(response, BODY_LIMIT, 'the search');
      };
      // A paused turn (Anthropic's handling-stop-reasons: pause_turn) goes back as the assistant's, to be continued;
      // the answer is every round's blocks together.
      return fromClaudeSearch(await continuePausedAnswer(request, await send(request), send));
    },
  });
}

/** The Messages request: the search prompt, the web search tool (two searches per query allowed), domain filters and location. */
export function toClaudeSearchRequest(search: SearchRequest, searchModel?: string): Record<string, unknown> {
  const requested = search.model && /^claude-/i.test(search.model) ? search.model.replace(new RegExp(`${THINKING_SUFFIX}$`), '') : undefined;
  const tool: Record<string, unknown> = { type: WEB_SEARCH_TOOL, name: 'web_search', max_uses: Math.min(20, Math.max(5, search.queries.length * 2)) };
  const filters = search.settings.filters;
  // The tool takes one of the two lists; allowed domains are the stricter wish.
  if (filters?.allowed_domains?.length) tool.allowed_domains = filters.allowed_domains;
  else if (filters?.blocked_domains?.length) tool.blocked_domains = filters.blocked_domains;
  const location = search.settings.user_location;
  if (location && (location.city || location.region || location.country || location.timezone)) {
    tool.user_location = { type: 'approximate', ...Object.fromEntries(['city', 'region', 'country', 'timezone'].flatMap((name) => (typeof location[name as keyof typeof location] === 'string' ? [[name, location[name as keyof typeof location]]] : []))) };
  }
  return {
    model: searchModel ?? requested ?? DEFAULT_SEARCH_MODEL,
    max_tokens: search.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
    messages: [{ role: 'user', content: buildSearchPrompt(search) }],
    tools: [tool],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A Messages answer with web search → its text and sources: every `web_search_result` of the tool results in
 * order, snippets from the text citations (`web_search_result_location.cited_text`) of the same URL (else the
 * page age), then cited URLs the results did not list. A search that failed and found nothing is a 502 with the
 * tool's error code; an answer with neither text nor sources, a 502 with the stop reason.
 */
export function fromClaudeSearch(json: unknown): SearchAnswer {
  if (!isRecord(json) || !Array.isArray(json.content)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream search answer is not a Messages response');
  const blocks = json.content.filter(isRecord);
  const cited = new Map<string, { title?: string; texts: string[] }>();
  const texts: string[] = [];
  for (const block of blocks) {
    if (block.type !== 'text' || typeof block.text !== 'string') continue;
    texts.push(block.text);
    for (const citation of Array.isArray(block.citations) ? block.citations.filter(isRecord) : []) {
      if (typeof citation.url !== 'string') continue;
      const entry = cited.get(citation.url) ?? { texts: [] };
      if (typeof citation.title === 'string' && !entry.title) entry.title = citation.title;
      const quote = typeof citation.cited_text === 'string' ? citation.cited_text.trim() : '';
      if (quote && !entry.texts.includes(quote)) entry.texts.push(quote);
      cited.set(citation.url, entry);
    }
  }
  const sources: SearchSource[] = [];
  const errors: string[] = [];
  for (const block of blocks) {
    if (block.type !== 'web_search_tool_result') continue;
    if (isRecord(block.content)) {
      if (typeof block.content.error_code === 'string') errors.push(block.content.error_code);
      continue;
    }
    for (const result of Array.isArray(block.content) ? block.content.filter(isRecord) : []) {
      if (typeof result.url !== 'string') continue;
      const quotes = cited.get(result.url)?.texts ?? [];
      const age = typeof result.page_age === 'string' && result.page_age ? `Page age: ${result.page_age}` : '';
      sources.push({ url: result.url, ...(typeof result.title === 'string' ? { title: result.title } : {}), snippet: quotes.length ? quotes.join(' … ') : age });
    }
  }
  for (const [url, entry] of cited) sources.push({ url, ...(entry.title ? { title: entry.title } : {}), snippet: entry.texts.join(' … ') });
  const text = texts.join('');
  if (sources.length === 0 && errors.length > 0) {
    throw new GatewayError('GW_UPSTREAM_ERROR', `the upstream web search failed: ${[...new Set(errors)].join(', ')}`, { upstreamCode: errors[0] });
  }
  return searchAnswer(text, sources, typeof json.stop_reason === 'string' ? `stop reason ${json.stop_reason}` : undefined);
}
