import type { UnifiedCitation, UnifiedWebSearch } from '../../unified/unified-response';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  const bytes = Buffer.from(text, 'utf8');
  const charAt = (byte: number): number => bytes.subarray(0, Math.max(0, Math.min(byte, bytes.length))).toString('utf8').length;
  const citations: UnifiedCitation[] = [];
  for (const support of Array.isArray(grounding.groundingSupports) ? grounding.groundingSupports : []) {
    if (!isObject(support) || !isObject(support.segment) || !Array.isArray(support.groundingChunkIndices)) continue;
    const start = charAt(Number(support.segment.startIndex ?? 0));
    const end = charAt(Number(support.segment.endIndex ?? 0));
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
