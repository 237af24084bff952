import { GatewayError } from '../errors/gateway-error';
import type { SearchRequest } from './parse-search-request';

/** Spec 2.10: one source the answer drew on. */
export interface SearchResult {
  type: 'text_result';
  domain: string;
  /** `turn<N>search<M>`: N counts the calls of a search session, M the sources of this call. */
  ref_id: string;
  snippet: string;
  title: string;
  url: string;
}

/** Spec 2.10. `encrypted_output` is null: no platform behind the gateway returns opaque search state. */
export interface SearchResponse {
  output: string;
  encrypted_output: string | null;
  results: SearchResult[];
}

/** A source as a platform reports it (citation, grounding chunk, search hit). */
export interface SearchSource {
  url: string;
  title?: string;
  snippet?: string;
  /** The site, when the URL does not name it (a search engine's redirect link); else the URL's host. */
  domain?: string;
}

/** What a platform's model answered a search call: its text and the sources it drew on. */
export interface SearchAnswer {
  text: string;
  sources: SearchSource[];
}

/**
 * A platform's answer, checked: one with neither text nor sources tells the calling model nothing, so it is the
 * upstream's failure (502) named by why the model stopped (`finish reason MAX_TOKENS`), never an empty 200.
 */
export function searchAnswer(text: string, sources: SearchSource[], stopped?: string): SearchAnswer {
  if (!text.trim() && sources.length === 0) {
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream search answered neither text nor sources${stopped ? ` (${stopped})` : ''}`);
  }
  return { text, sources };
}

/** Sources → results: one per URL (fragments ignored, later mentions fill a missing title or snippet), in order. */
export function buildSearchResults(sources: readonly SearchSource[], turn: number): SearchResult[] {
  const byUrl = new Map<string, SearchResult>();
  for (const source of sources) {
    let parsed: URL;
    try {
      parsed = new URL(source.url);
    } catch {
      continue;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') continue;
    parsed.hash = '';
    const key = parsed.toString();
    const known = byUrl.get(key);
    if (known) {
      if (!known.title && source.title) known.title = source.title;
      if (!known.snippet && source.snippet) known.snippet = source.snippet;
      continue;
    }
    const domain = (source.domain?.trim() || parsed.hostname).replace(/^www\./, '');
    byUrl.set(key, {
      type: 'text_result',
      domain,
      ref_id: `turn${turn}search${byUrl.size}`,
      snippet: source.snippet?.trim() ?? '',
      title: source.title?.trim() || domain,
      url: source.url,
    });
  }
  return [...byUrl.values()];
}

/** The answer text for the calling model, followed by the sources it can cite or `open` by ref id. */
export function buildSearchResponse(answer: string, results: SearchResult[]): SearchResponse {
  const lines = results.map((result) => `[${result.ref_id}] ${result.title} (${result.domain}): ${result.url}`);
  const output = lines.length === 0 ? answer.trim() : `${answer.trim()}\n\nSources:\n${lines.join('\n')}`;
  return { output, encrypted_output: null, results };
}

const LENGTH_HINTS = {
  short: 'Answer briefly, in a few sentences.',
  medium: 'Answer concisely, a short paragraph per question.',
  long: 'Answer in detail.',
} as const;

/**
 * The instruction a platform's model receives: every command of the call, answered together in one reply.
 * `open`/`find` refs must already be URLs (see createSearchSessions).
 */
export function buildSearchPrompt(request: Pick<SearchRequest, 'queries' | 'opens' | 'finds' | 'responseLength' | 'input' | 'settings'>): string {
  const tasks: string[] = [];
  for (const query of request.queries) {
    const limits: string[] = [];
    if (query.domains?.length) limits.push(`only on ${query.domains.join(', ')}`);
    if (query.recency !== undefined) limits.push(`published in the last ${query.recency} days`);
    tasks.push(`Search the web for: ${JSON.stringify(query.q)}${limits.length ? ` (${limits.join('; ')})` : ''}`);
  }
  for (const open of request.opens) tasks.push(`Open the page ${open.ref_id}${open.lineno !== undefined ? ` (from line ${open.lineno})` : ''} and report what it says`);
  for (const find of request.finds) tasks.push(`Find ${JSON.stringify(find.pattern)} in the page ${find.ref_id} and quote the matching passages`);

  const lines = ['Use web search to answer every task below in one reply, citing the sources you used.'];
  tasks.forEach((task, i) => lines.push(`${i + 1}. ${task}`));
  const blocked = request.settings.filters?.blocked_domains;
  if (blocked?.length) lines.push(`Do not use these sites: ${blocked.join(', ')}.`);
  const allowed = request.settings.filters?.allowed_domains;
  if (allowed?.length) lines.push(`Use only these sites: ${allowed.join(', ')}.`);
  if (typeof request.input === 'string' && request.input.trim() && !request.queries.some((query) => query.q === request.input)) {
    lines.push(`Context of the request: ${request.input.trim()}`);
  }
  if (request.responseLength) lines.push(LENGTH_HINTS[request.responseLength]);
  return lines.join('\n');
}
