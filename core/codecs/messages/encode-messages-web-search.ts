import type { UnifiedCitation, UnifiedWebSearch } from '../../unified/unified-response';
import { toPrefixedId } from '../shared/to-prefixed-id';

type Json = Record<string, unknown>;

interface ServerToolUseBlock {
  type: 'server_tool_use';
  id: string;
  name: 'web_search';
  input: Json;
  [field: string]: unknown;
}

interface WebSearchResultBlock {
  type: 'web_search_tool_result';
  tool_use_id: string;
  content: Json[];
  [field: string]: unknown;
}

/**
 * A web search another platform ran (Gemini grounding) → the two blocks Anthropic's web search tool answers with: the
 * `server_tool_use` with its query, and the `web_search_tool_result` listing the pages, as Claude Code shows them.
 * Their opaque fields (`encrypted_content`) are empty: nothing of Anthropic's to replay.
 */
export function encodeWebSearchBlocks(search: UnifiedWebSearch): [ServerToolUseBlock, WebSearchResultBlock] {
  const id = toPrefixedId('srvtoolu_', search.id);
  return [
    { type: 'server_tool_use', id, name: 'web_search', input: search.query !== undefined ? { query: search.query } : {} },
    {
      type: 'web_search_tool_result',
      tool_use_id: id,
      content: search.sources.map((source) => ({ type: 'web_search_result', url: source.url, title: source.title ?? source.url, encrypted_content: '', page_age: null })),
    },
  ];
}

/** A citation of `text` (the answer's text) → the `web_search_result_location` a text block lists. */
export function encodeWebSearchCitation(citation: UnifiedCitation, text: string): Json {
  return { type: 'web_search_result_location', url: citation.url, title: citation.title ?? citation.url, cited_text: text.slice(citation.start, citation.end), encrypted_index: '' };
}
