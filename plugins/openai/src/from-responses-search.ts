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

/** How far back from a citation its sentence is looked for: bounds the work per citation on a model's long text. */
const SENTENCE_WINDOW_CHARS = 4 * SNIPPET_CHARS;

/**
 * The sentence a citation closes: the text before it back to the previous sentence end (at most
 * SENTENCE_WINDOW_CHARS), links reduced to their text. Plain loops and regexes that cannot backtrack over the text:
 * a model's answer is not ours to trust, and 100,000 spaces before a citation held the event loop for 11 s.
 */
function citedSentence(text: string, start: number): string {
  let end = Math.max(0, Math.min(start, text.length));
  while (end > 0 && isTrailing(text.charCodeAt(end - 1))) end -= 1;
  const windowStart = Math.max(0, end - SENTENCE_WINDOW_CHARS);
  // No sentence end in the window: the text right before the citation, not the window's far end.
  let from = windowStart === 0 ? 0 : Math.max(0, end - SNIPPET_CHARS);
  for (let at = end - 2; at >= windowStart; at -= 1) {
    const code = text.charCodeAt(at);
    if (code === 0x0a) {
      from = at + 1;
      break;
    }
    if ((code === 0x2e || code === 0x21 || code === 0x3f) && isSpace(text.charCodeAt(at + 1))) {
      from = at + 1;
      break;
    }
  }
  const sentence = text.slice(from, end).replace(/\[([^\][]*)\]\([^()]*\)/g, '$1').trim();
  return sentence.length > SNIPPET_CHARS ? `${sentence.slice(0, SNIPPET_CHARS - 1)}…` : sentence;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c || code === 0x0b || code === 0xa0;
}

/** What a citation's sentence does not end with: space, and an opening parenthesis or bracket left before the link. */
function isTrailing(code: number): boolean {
  return isSpace(code) || code === 0x28 || code === 0x5b;
}
