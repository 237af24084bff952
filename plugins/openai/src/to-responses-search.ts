import { buildSearchPrompt, GatewayError, type SearchRequest } from '@gateway/core';

/**
 * A search call as one Responses API request with the hosted `web_search` tool: every command of the call in one
 * instruction (answered together), the client's conversation items before it, the settings mapped onto the tool.
 * @see https://platform.openai.com/docs/guides/tools-web-search
 */
export function toResponsesSearchRequest(request: SearchRequest, model: string | undefined): Record<string, unknown> {
  if (!model) throw new GatewayError('GW_INVALID_REQUEST', 'model: is required', { param: 'model' });
  const tool: Record<string, unknown> = { type: 'web_search' };
  const allowed = request.settings.filters?.allowed_domains;
  if (allowed?.length) tool.filters = { allowed_domains: allowed };
  const location = request.settings.user_location;
  if (location) {
    const { type: _type, ...place } = location;
    tool.user_location = { type: 'approximate', ...place };
  }
  if (request.settings.search_context_size) tool.search_context_size = request.settings.search_context_size;

  const items = Array.isArray(request.input) ? request.input.map(asInputItem) : [];
  const body: Record<string, unknown> = {
    model,
    input: [...items, { role: 'user', content: buildSearchPrompt(request) }],
    tools: [tool],
    include: ['web_search_call.action.sources'],
    store: false,
  };
  if (request.reasoning) body.reasoning = request.reasoning;
  if (request.maxOutputTokens) body.max_output_tokens = request.maxOutputTokens;
  return body;
}

/**
 * A conversation item as the Responses API takes it: a message keeps its type, role and content only. Codex marks the
 * messages it sends to `/v1/alpha/search` with a private `internal_chat_message_metadata_passthrough` (which it takes
 * off its own Responses calls), and the API answers any unknown field with 400 `unknown_parameter`. Other items
 * (calls, their outputs, reasoning) go as they are.
 */
function asInputItem(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
  const { type, role, content } = item as Record<string, unknown>;
  if (type !== undefined && type !== 'message') return item;
  return { ...(type === undefined ? {} : { type }), role, content };
}
