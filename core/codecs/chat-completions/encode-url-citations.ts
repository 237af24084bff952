import type { UnifiedCitation } from '../../unified/unified-response';
import type { TextOffsetMap } from '../shared/text-offset-map';

export interface ChatUrlCitation {
  type: 'url_citation';
  url_citation: { start_index: number; end_index: number; url: string; title: string };
}

/** Citations → chat `message.annotations` (`url_citation`, offsets into `content`), as OpenAI's web search gives them. */
export function encodeUrlCitations(citations: readonly UnifiedCitation[], offsets: TextOffsetMap<0>): ChatUrlCitation[] {
  return citations.flatMap((citation): ChatUrlCitation[] => {
    const at = offsets.locate(citation.start, citation.end);
    if (!at) return [];
    return [{ type: 'url_citation', url_citation: { start_index: at.start, end_index: at.end, url: citation.url, title: citation.title ?? citation.url } }];
  });
}
