export { fetchMedia, MAX_MEDIA_REDIRECTS, type FetchMediaOptions, type FetchedMedia } from './fetch-media';
export { mediaTypeOf, sniffMediaType, SNIFF_BYTES } from './sniff-media-type';
export { FETCH_CONCURRENCY, MAX_FETCHED_URLS, fetchWithinBudget, mapConcurrently, mediaBudget, refuseTooManyFetches, type MediaBudget } from './fetch-within-budget';
