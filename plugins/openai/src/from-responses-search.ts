import { GatewayError, type SearchSource } from '@gateway/core';

interface OutputText {
  type?: string;
  text?: string;
  annotations?: Array<{ type?: string; url?: string; title?: string; start_index?: number; end_index?: number }>;
}

interface OutputItem {
  type?: string;
  content?: OutputText[];
  action?: { sources?: Array<{ url?: string }> };
}

/** Longest snippet taken from the answer around a citation. */
const SNIPPET_CHARS = 300;

/**
 * A Responses answer with `web_search` → the answer text and its sources: `url_citation` annotations first (with
 * the cited sentence as snippet), then the pages the search consulted (`web_search_call.action.sources`).
 */
export function fromResponsesSearch(json: unknown): { answer: string; sources: SearchSource[] } {
  const body = json as { output?: unknown; status?: unknown; error?: { message?: unknown } | null } | null;
  if (!body || typeof body !== 'object' || !Array.isArray(body.output)) {
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream search answer is not a Responses object');
  }
  const texts: string[] = [];
  const cited: SearchSource[] = [];
  const consulted: SearchSource[] = [];
  for (const item of body.output as OutputItem[]) {
    if (item?.type === 'message') {
      for (const part of item.content ?? []) {
        if (part?.type !== 'output_text' || typeof part.text !== 'string') continue;
        texts.push(part.text);
        for (const note of part.annotations ?? []) {
          if (note?.type !== 'url_citation' || typeof note.url !== 'string') continue;
          cited.push({ url: note.url, title: note.title, snippet: citedSentence(part.text, note.start_index ?? 0) });
        }
      }
    } else if (item?.type === 'web_search_call') {
      for (const source of item.action?.sources ?? []) if (typeof source?.url === 'string') consulted.push({ url: source.url });
    }
  }
  if (texts.length === 0 && body.status === 'failed') {
    const message = typeof body.error?.message === 'string' ? body.error.message : 'upstream search failed';
    throw new GatewayError('GW_UPSTREAM_ERROR', message, { status: 502 });
  }
  return { answer: texts.join('\n\n'), sources: [...cited, ...consulted] };
}

/** The sentence a citation closes: the text before it back to the previous sentence end, links reduced to their text. */
function citedSentence(text: string, start: number): string {
  const before = text.slice(0, Math.max(0, start)).replace(/[\s([]+$/, '');
  let from = 0;
  const boundary = /[.!?]\s+|\n/g;
  for (let match = boundary.exec(before); match; match = boundary.exec(before)) {
    if (match.index + match[0].length < before.length) from = match.index + match[0].length;
  }
  const sentence = before.slice(from).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim();
  return sentence.length > SNIPPET_CHARS ? `${sentence.slice(0, SNIPPET_CHARS - 1)}…` : sentence;
}
