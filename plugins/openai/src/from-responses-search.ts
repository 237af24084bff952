import { GatewayError, searchAnswer, type SearchAnswer, type SearchSource } from '@gateway/core';

/** Longest snippet taken from the answer around a citation. */
const SNIPPET_CHARS = 300;

/**
 * A Responses answer with `web_search` → the answer text and its sources: `url_citation` annotations first (with
 * the cited sentence as snippet), then the pages the search consulted (`web_search_call.action.sources`). Parts of
 * another shape are skipped; a failed answer is a 502 with the upstream's message, one with neither text nor sources
 * a 502 with why it stopped (`incomplete_details.reason`).
 */
export function fromResponsesSearch(json: unknown): SearchAnswer {
  if (!isRecord(json) || !Array.isArray(json.output)) {
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream search answer is not a Responses object');
  }
  const texts: string[] = [];
  const cited: SearchSource[] = [];
  const consulted: SearchSource[] = [];
  for (const item of records(json.output)) {
    if (item.type === 'message') {
      for (const part of records(item.content)) {
        if (part.type !== 'output_text' || typeof part.text !== 'string') continue;
        texts.push(part.text);
        for (const note of records(part.annotations)) {
          if (note.type !== 'url_citation' || typeof note.url !== 'string') continue;
          const start = typeof note.start_index === 'number' ? note.start_index : 0;
          cited.push({ url: note.url, ...(typeof note.title === 'string' ? { title: note.title } : {}), snippet: citedSentence(part.text, start) });
        }
      }
    } else if (item.type === 'web_search_call') {
      for (const source of records(isRecord(item.action) ? item.action.sources : undefined)) if (typeof source.url === 'string') consulted.push({ url: source.url });
    }
  }
  if (texts.length === 0 && json.status === 'failed') {
    const message = isRecord(json.error) && typeof json.error.message === 'string' ? json.error.message : 'upstream search failed';
    throw new GatewayError('GW_UPSTREAM_ERROR', message, { status: 502 });
  }
  return searchAnswer(texts.join('\n\n'), [...cited, ...consulted], stopReason(json));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects of a list; nothing when it is not one. */
function records(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** `status incomplete: max_output_tokens`, or the status alone. */
function stopReason(json: Record<string, unknown>): string | undefined {
  if (typeof json.status !== 'string') return undefined;
  const reason = isRecord(json.incomplete_details) && typeof json.incomplete_details.reason === 'string' ? `: ${json.incomplete_details.reason}` : '';
  return `status ${json.status}${reason}`;
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
