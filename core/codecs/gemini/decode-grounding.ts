import type { UnifiedCitation, UnifiedWebSearch } from '../../unified/unified-response';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * UTF-8 byte offset → UTF-16 offset in `text`, at a whole character, never between the halves of a surrogate pair:
 * an offset inside a character takes all of it (a start lands before it, an end after it).
 */
function charOffsets(text: string): (byte: number, end: boolean) => number {
  return (byte, end) => {
    let bytes = 0;
    let index = 0;
    while (index < text.length) {
      const code = text.codePointAt(index)!;
      const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      if (end ? bytes >= byte : bytes + size > byte) break;
      bytes += size;
      index += code >= 0x10000 ? 2 : 1;
    }
    return index;
  };
}

/**
 * Google Search grounding (`candidate.groundingMetadata`) → the search the model ran and the sources its text cites.
 * `groundingSupports[].segment` gives UTF-8 byte offsets into the answer's text, turned here into the UTF-16 offsets
 * of UnifiedCitation; each support cites the `groundingChunks[].web` pages it names. `searchId` names the search.
 */
export function decodeGrounding(grounding: unknown, text: string, searchId: string): { citations: UnifiedCitation[]; search?: UnifiedWebSearch } {
  if (!isObject(grounding)) return { citations: [] };
  const pages = (Array.isArray(grounding.groundingChunks) ? grounding.groundingChunks : []).map((chunk) => {
    const web = isObject(chunk) && isObject(chunk.web) ? chunk.web : undefined;
    return web && typeof web.uri === 'string' ? { url: web.uri, ...(typeof web.title === 'string' && web.title ? { title: web.title } : {}) } : undefined;
  });
  const charAt = charOffsets(text);
  const citations: UnifiedCitation[] = [];
  for (const support of Array.isArray(grounding.groundingSupports) ? grounding.groundingSupports : []) {
    if (!isObject(support) || !isObject(support.segment) || !Array.isArray(support.groundingChunkIndices)) continue;
    const start = charAt(Number(support.segment.startIndex ?? 0), false);
    const end = charAt(Number(support.segment.endIndex ?? 0), true);
    if (!(end > start)) continue;
    for (const index of support.groundingChunkIndices) {
      const page = typeof index === 'number' ? pages[index] : undefined;
      if (page) citations.push({ ...page, start, end });
    }
  }
  const queries = Array.isArray(grounding.webSearchQueries) ? grounding.webSearchQueries.filter((q): q is string => typeof q === 'string') : [];
  const sources = pages.filter((page): page is NonNullable<typeof page> => page !== undefined);
  if (queries.length === 0 && sources.length === 0) return { citations };
  return { citations, search: { id: searchId, ...(queries.length > 0 ? { query: queries.join('; ') } : {}), sources } };
}
