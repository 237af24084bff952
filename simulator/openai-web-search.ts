import { parseDirectives } from './directives';
import { isRecord, sendJson } from './http-util';
import { sendOpenAiError, statusError } from './openai-errors';
import { contentText, SIM_CREATED, simId } from './scenario';
import type { Exchange } from './types';

/**
 * OpenAI `POST /v1/responses` with the hosted `web_search` tool (non-streaming): a `web_search_call` item, then a
 * message whose text cites two fixed pages with `url_citation` annotations. With
 * `include: ["web_search_call.action.sources"]` the call lists a third, consulted but uncited page.
 */

export const SIM_SEARCH_SOURCES = [
  { url: 'https://example.com/', title: 'Example Domain', sentence: 'Example Domain is reserved for use in illustrative examples in documents.' },
  { url: 'https://nodejs.org/en/about', title: 'About Node.js', sentence: 'Node.js is an asynchronous event-driven JavaScript runtime.' },
] as const;
export const SIM_CONSULTED_URL = 'https://developer.mozilla.org/en-US/';

export function hasWebSearchTool(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.some((tool) => isRecord(tool) && (tool.type === 'web_search' || tool.type === 'web_search_preview'));
}

function lastUserText(body: Record<string, unknown>): string {
  if (typeof body.input === 'string') return body.input;
  const items = Array.isArray(body.input) ? body.input.filter(isRecord) : [];
  const last = [...items].reverse().find((item) => item.role === 'user');
  return contentText(last?.content);
}

export function createWebSearchResponse(exchange: Exchange, body: Record<string, unknown>): void {
  const model = typeof body.model === 'string' ? body.model : 'gpt-4.1-mini';
  const { directives, text: asked } = parseDirectives(lastUserText(body));
  if (directives.error !== undefined) return sendOpenAiError(exchange, statusError(directives.error, model));
  // The first quoted phrase is taken as the query (the gateway quotes each one), else the first line.
  const query = (/"([^"\n]+)"/.exec(asked)?.[1] ?? asked.split('\n').find((line) => line.trim() !== '') ?? '').trim().slice(0, 120);
  const counter = exchange.nextId();

  let text = `Here is what I found for: ${query}`;
  const annotations: Record<string, unknown>[] = [];
  for (const source of SIM_SEARCH_SOURCES) {
    text += `\n${source.sentence} `;
    const link = `([${new URL(source.url).hostname}](${source.url}))`;
    annotations.push({ type: 'url_citation', start_index: text.length, end_index: text.length + link.length, title: source.title, url: source.url });
    text += link;
  }
  const include = Array.isArray(body.include) ? body.include : [];
  const action: Record<string, unknown> = { type: 'search', query };
  if (include.includes('web_search_call.action.sources')) {
    action.sources = [...SIM_SEARCH_SOURCES.map((source) => ({ type: 'url', url: source.url })), { type: 'url', url: SIM_CONSULTED_URL }];
  }
  const inputTokens = Math.ceil(asked.length / 4);
  const outputTokens = Math.ceil(text.length / 4);
  sendJson(exchange.res, 200, {
    id: `resp_${simId(counter, 48)}`,
    object: 'response',
    created_at: SIM_CREATED,
    status: 'completed',
    completed_at: SIM_CREATED + 1,
    error: null,
    incomplete_details: null,
    model,
    output: [
      { id: `ws_${simId(counter, 48)}`, type: 'web_search_call', status: 'completed', action },
      {
        id: `msg_${simId(counter, 48)}`,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations, logprobs: [], text }],
      },
    ],
    tools: body.tools,
    usage: { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
  });
}
