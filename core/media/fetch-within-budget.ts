import { GatewayError, isGatewayError } from '../errors/gateway-error';
import type { GatewaySettings } from '../hooks/plugin-api';
import { fetchMedia, type FetchedMedia } from './fetch-media';

/** Downloads in flight per request: bounds memory (each may hold up to `media.maxBytes`) and outbound fan-out. */
export const FETCH_CONCURRENCY = 4;

/**
 * What one request's downloads may take in all: `media.maxBytes` (Gemini's own inline limit is of that order), and
 * `media.timeoutMs` from the first: with a timeout per download alone, 100 slow URLs four at a time took 25 times it.
 */
export interface MediaBudget {
  remaining: number;
  /** When the request's downloads must be done (epoch ms). */
  deadline: number;
}

export function mediaBudget(media: GatewaySettings['media']): MediaBudget {
  return { remaining: media.maxBytes, deadline: Date.now() + media.timeoutMs };
}

/**
 * URLs one request may have the gateway fetch: Anthropic's own limit on images per request. Without it a body of
 * small parts made as many outbound requests as it could hold (500 documents by URL in 44 KB: 500 GETs).
 */
export const MAX_FETCHED_URLS = 100;

/** Refuses a request with more media to fetch than MAX_FETCHED_URLS, before any is fetched, naming the first one over. */
export function refuseTooManyFetches(fields: readonly string[]): void {
  if (fields.length <= MAX_FETCHED_URLS) return;
  const field = fields[MAX_FETCHED_URLS];
  throw new GatewayError(
    'GW_INVALID_REQUEST',
    `${field}: a request may give at most ${MAX_FETCHED_URLS} media by URL for the gateway to fetch, this one gives ${fields.length}; send the others inline (base64)`,
    { param: field },
  );
}

/** One download of a request, counted against its budget: 413 once the request's downloads together pass it. */
export async function fetchWithinBudget(
  url: string,
  field: string,
  media: GatewaySettings['media'],
  budget: MediaBudget,
  signal: AbortSignal,
): Promise<FetchedMedia> {
  const tooMuch = (): GatewayError =>
    new GatewayError('GW_BODY_TOO_LARGE', `${field}: the media fetched for this request together exceed the ${media.maxBytes}-byte limit`, { param: field });
  if (budget.remaining <= 0) throw tooMuch();
  const timeLeft = budget.deadline - Date.now();
  if (timeLeft <= 0) {
    throw new GatewayError('GW_INVALID_REQUEST', `${field}: the media fetched for this request together took longer than the ${media.timeoutMs} ms limit`, { param: field });
  }
  const allowance = Math.min(media.maxBytes, budget.remaining);
  const fetched = await fetchMedia(url, { ...media, timeoutMs: Math.min(media.timeoutMs, timeLeft), maxBytes: allowance, field, signal }).catch((error: unknown) => {
    throw isGatewayError(error) && error.code === 'GW_BODY_TOO_LARGE' && allowance < media.maxBytes ? tooMuch() : error;
  });
  budget.remaining -= fetched.data.length;
  if (budget.remaining < 0) throw tooMuch();
  return fetched;
}

/**
 * `work` on each item, `concurrency` at a time (FETCH_CONCURRENCY unless told), results in the items' order. The first
 * failure aborts the signal the work is given (the other downloads or upstream calls stop) and is thrown; so is the
 * client leaving.
 */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  client: AbortSignal,
  work: (item: T, index: number, signal: AbortSignal) => Promise<R>,
  concurrency = FETCH_CONCURRENCY,
): Promise<R[]> {
  const controller = new AbortController();
  const signal = AbortSignal.any([client, controller.signal]);
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal.aborted) {
      const index = next;
      next += 1;
      results[index] = await work(items[index], index, signal);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
    if (signal.aborted) throw new GatewayError('GW_CLIENT_CLOSED', 'client went away before the work for its request was done');
  } catch (error) {
    controller.abort();
    throw error;
  }
  return results;
}
