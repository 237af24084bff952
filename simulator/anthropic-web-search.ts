import { isRecord, sendJson } from './http-util';
import { simId } from './scenario';
import type { Exchange } from './types';

/**
 * Anthropic's server web search tool (`web_search_20250305`): a Messages request that carries it is answered with
 * one `server_tool_use` + `web_search_tool_result` pair per quoted query of the prompt (`Search the web for: "…"`),
 * two results each, then a text block citing them (`web_search_result_location` with `cited_text`).
 */

function hasWebSearch(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.some((tool) => isRecord(tool) && typeof tool.type === 'string' && tool.type.startsWith('web_search_'));
}

function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const content = messages.at(-1)?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('') : '';
}

/** Answers a web-search request; false when the request has no web search tool (or asks for a directive). */
export function handleAnthropicWebSearch(exchange: Exchange, body: Record<string, unknown>, requestId: string): boolean {
  if (!hasWebSearch(body) || body.stream === true) return false;
  const prompt = lastUserText(body);
  if (/\[sim:/.test(prompt)) return false;
  const queries = [...prompt.matchAll(/Search the web for: "((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]);
  if (queries.length === 0) queries.push(prompt.slice(0, 40));
  const counter = exchange.nextId();
  const content: Record<string, unknown>[] = [];
  queries.forEach((query, i) => {
    const slug = query.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'query';
    const id = `srvtoolu_01${simId(counter * 10 + i)}`;
    content.push({ type: 'server_tool_use', id, name: 'web_search', input: { query } });
    content.push({
      type: 'web_search_tool_result',
      tool_use_id: id,
      content: [
        { type: 'web_search_result', url: `https://example.com/${slug}`, title: `About ${query}`, encrypted_content: 'RW5jcnlwdGVkLXNpbQ==', page_age: 'April 30, 2025' },
        { type: 'web_search_result', url: `https://news.example.net/${slug}`, title: `News on ${query}`, encrypted_content: 'RW5jcnlwdGVkLXNpbQ==', page_age: null },
      ],
    });
  });
  queries.forEach((query, i) => {
    const slug = query.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'query';
    content.push({
      type: 'text',
      text: `Result ${i + 1} about ${query}. `,
      citations: [{ type: 'web_search_result_location', url: `https://example.com/${slug}`, title: `About ${query}`, encrypted_index: 'RW5j', cited_text: `${query} explained.` }],
    });
  });
  sendJson(
    exchange.res,
    200,
    {
      id: `msg_01${simId(counter)}`,
      type: 'message',
      role: 'assistant',
      model: String(body.model),
      content,
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 50, output_tokens: 20, server_tool_use: { web_search_requests: queries.length } },
    },
    { 'request-id': requestId },
  );
  return true;
}
