import { createUtf8Offsets } from '../../text/utf8-offsets';
import { isPlainObject } from '../shared/is-plain-object';
import type { UnifiedCitation, UnifiedWebSearch } from '../../unified/unified-response';

type Json = Record<string, unknown>;

/** What one `groundingMetadata` says: the sources the text cites, the queries run and the pages found. */
export interface Grounding {
  citations: UnifiedCitation[];
  queries: string[];
  sources: UnifiedWebSearch['sources'];
}

/**
 * The most citations one answer's grounding gives (real ones: tens). Each is a span and a page, written out whole by
 * every client format: 2000 spans citing 200 pages of 1 KB URLs each made a 1.8 MB answer 448 MB (and 2 GB of RSS).
 */
export const MAX_CITATIONS = 1000;

/**
 * Google Search grounding (`candidate.groundingMetadata`) → the sources the answer's text cites, and what was searched.
 * `groundingSupports[].segment` gives UTF-8 byte offsets into the answer's text, turned here into the UTF-16 offsets
 * of UnifiedCitation; each support cites the `groundingChunks[].web` pages it names.
 */
export function decodeGrounding(grounding: unknown, text: string): Grounding {
  if (!isPlainObject(grounding)) return { citations: [], queries: [], sources: [] };
  const pages = (Array.isArray(grounding.groundingChunks) ? grounding.groundingChunks : []).map((chunk) => {
    const web = isPlainObject(chunk) && isPlainObject(chunk.web) ? chunk.web : undefined;
    return web && typeof web.uri === 'string' ? { url: web.uri, ...(typeof web.title === 'string' && web.title ? { title: web.title } : {}) } : undefined;
  });
  const { charAt } = createUtf8Offsets(text);
  const citations: UnifiedCitation[] = [];
  for (const support of Array.isArray(grounding.groundingSupports) ? grounding.groundingSupports : []) {
    if (!isPlainObject(support) || !isPlainObject(support.segment) || !Array.isArray(support.groundingChunkIndices)) continue;
    const start = charAt(Number(support.segment.startIndex ?? 0), false);
    const end = charAt(Number(support.segment.endIndex ?? 0), true);
    if (!(end > start)) continue;
    for (const index of support.groundingChunkIndices) {
      const page = typeof index === 'number' ? pages[index] : undefined;
      if (page) citations.push({ ...page, start, end });
    }
    if (citations.length >= MAX_CITATIONS) break;
  }
  citations.length = Math.min(citations.length, MAX_CITATIONS);
  const queries = Array.isArray(grounding.webSearchQueries) ? grounding.webSearchQueries.filter((q): q is string => typeof q === 'string') : [];
  const sources = pages.filter((page): page is NonNullable<typeof page> => page !== undefined);
  return { citations, queries, sources };
}

/** The search a grounding tells of, named `id`; none when it names no query and no page. */
export function groundingSearch(grounding: Pick<Grounding, 'queries' | 'sources'>, id: string): UnifiedWebSearch | undefined {
  if (grounding.queries.length === 0 && grounding.sources.length === 0) return undefined;
  return { id, ...(grounding.queries.length > 0 ? { query: grounding.queries.join('; ') } : {}), sources: grounding.sources };
}

/**
 * Groundings of one streamed answer gathered: Gemini may send one early, several, or a growing copy on each chunk.
 * Each citation, query and page counts once.
 */
export function createGroundingCollector(): { add(grounding: Grounding): void; seen(): boolean; result(): Grounding } {
  const citations = new Map<string, UnifiedCitation>();
  const queries = new Set<string>();
  const sources = new Map<string, UnifiedWebSearch['sources'][number]>();
  let any = false;
  return {
    add(grounding) {
      any = true;
      for (const citation of grounding.citations) {
        if (citations.size >= MAX_CITATIONS) break;
        citations.set(`${citation.url}\u0000${citation.start}\u0000${citation.end}`, citation);
      }
      for (const query of grounding.queries) queries.add(query);
      for (const source of grounding.sources) if (!sources.has(source.url)) sources.set(source.url, source);
    },
    seen: () => any,
    result: () => ({ citations: [...citations.values()], queries: [...queries], sources: [...sources.values()] }),
  };
}
