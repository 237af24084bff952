import type { UnifiedCitation, UnifiedWebSearch } from '../../unified/unified-response';
import { toPrefixedId } from '../shared/to-prefixed-id';
import type { ResponsesOutputWebSearchCall, ResponsesUrlCitation } from './responses-types';

/** A web search the upstream ran → a `web_search_call` item (its id `ws_…` from the search's), as Codex shows it. */
export function encodeWebSearchCall(search: UnifiedWebSearch): ResponsesOutputWebSearchCall {
  const action: ResponsesOutputWebSearchCall['action'] = { type: 'search' };
  if (search.query !== undefined) action.query = search.query;
  if (search.sources.length > 0) action.sources = search.sources.map((source) => ({ type: 'url', url: source.url }));
  return { id: toPrefixedId('ws_', search.id), type: 'web_search_call', status: search.failed ? 'failed' : 'completed', action };
}

/** A citation, its offsets already in the output_text it annotates → a `url_citation` annotation. */
export function encodeUrlCitation(citation: UnifiedCitation, start: number, end: number): ResponsesUrlCitation {
  return { type: 'url_citation', start_index: start, end_index: end, url: citation.url, title: citation.title ?? citation.url };
}
