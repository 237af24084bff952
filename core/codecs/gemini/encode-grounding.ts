import { createUtf8Offsets } from '../../text/utf8-offsets';
import type { UnifiedCitation, UnifiedWebSearch } from '../../unified/unified-response';

/**
 * Web search sources → Gemini's `groundingMetadata`, as Google Search grounding gives them (Gemini CLI's
 * `google_web_search` lists them): the queries, one `groundingChunks[].web` per page, and one `groundingSupports[]` per
 * cited span, its `segment` in UTF-8 byte offsets into the answer's `text`. Undefined when there is nothing to tell.
 */
export function encodeGrounding(text: string, citations: readonly UnifiedCitation[], searches: readonly UnifiedWebSearch[]): Record<string, unknown> | undefined {
  /** Each page once, with its index in `groundingChunks`. */
  const pages = new Map<string, { index: number; web: { uri: string; title?: string } }>();
  const page = (url: string, title: string | undefined): number => {
    let known = pages.get(url);
    if (!known) pages.set(url, (known = { index: pages.size, web: { uri: url, ...(title ? { title } : {}) } }));
    return known.index;
  };
  const offsets = citations.length > 0 ? createUtf8Offsets(text) : undefined;
  for (const search of searches) for (const source of search.sources) page(source.url, source.title);
  const supports = new Map<string, { segment: Record<string, unknown>; groundingChunkIndices: number[] }>();
  for (const citation of citations) {
    const key = `${citation.start}:${citation.end}`;
    let support = supports.get(key);
    if (!support) {
      const segment = { startIndex: offsets!.byteAt(citation.start), endIndex: offsets!.byteAt(citation.end), text: text.slice(citation.start, citation.end) };
      support = { segment, groundingChunkIndices: [] };
      supports.set(key, support);
    }
    const index = page(citation.url, citation.title);
    if (!support.groundingChunkIndices.includes(index)) support.groundingChunkIndices.push(index);
  }
  const queries = searches.flatMap((search) => (search.query !== undefined ? [search.query] : []));
  if (pages.size === 0 && queries.length === 0) return undefined;
  return {
    ...(queries.length > 0 ? { webSearchQueries: queries } : {}),
    groundingChunks: [...pages.values()].map(({ web }) => ({ web })),
    groundingSupports: [...supports.values()],
  };
}
