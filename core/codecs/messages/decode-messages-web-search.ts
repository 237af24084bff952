import { isPlainObject } from '../shared/is-plain-object';
import type { UnifiedCitation, UnifiedWebSearch } from '../../unified/unified-response';

type Json = Record<string, unknown>;


/**
 * The web sources an Anthropic text block cites (`web_search_result_location`: url, title, cited_text), each over the
 * whole block, which spans `start`..`end` of the answer's text. Document citations (char/page locations) have no URL.
 */
export function messagesBlockCitations(citations: unknown, start: number, end: number): UnifiedCitation[] {
  if (!Array.isArray(citations)) return [];
  return citations.flatMap((citation): UnifiedCitation[] => {
    if (!isPlainObject(citation) || citation.type !== 'web_search_result_location' || typeof citation.url !== 'string') return [];
    return [{ url: citation.url, ...(typeof citation.title === 'string' && citation.title ? { title: citation.title } : {}), start, end }];
  });
}

/** A `server_tool_use` block of the web search tool → the search, its query from the block's input. */
export function messagesWebSearchCall(block: Json): UnifiedWebSearch | undefined {
  if (block.type !== 'server_tool_use' || block.name !== 'web_search' || typeof block.id !== 'string') return undefined;
  const query = isPlainObject(block.input) && typeof block.input.query === 'string' ? block.input.query : undefined;
  return { id: block.id, ...(query !== undefined ? { query } : {}), sources: [] };
}

/** The pages of a `web_search_tool_result` block (none when the search failed), for the search it answers. */
export function messagesWebSearchResults(block: Json): { searchId: string; sources: UnifiedWebSearch['sources']; failed: boolean } | undefined {
  if (block.type !== 'web_search_tool_result' || typeof block.tool_use_id !== 'string') return undefined;
  // A failed search answers `{type: "web_search_tool_result_error", error_code}` instead of a list.
  if (isPlainObject(block.content) && block.content.type === 'web_search_tool_result_error') return { searchId: block.tool_use_id, sources: [], failed: true };
  const results = Array.isArray(block.content) ? block.content : [];
  const sources = results.flatMap((result) =>
    isPlainObject(result) && result.type === 'web_search_result' && typeof result.url === 'string'
      ? [{ url: result.url, ...(typeof result.title === 'string' && result.title ? { title: result.title } : {}) }]
      : [],
  );
  return { searchId: block.tool_use_id, sources, failed: false };
}
