export { fetchMedia, MAX_MEDIA_REDIRECTS, type FetchMediaOptions, type FetchedMedia } from './fetch-media';
export { sniffMediaType, SNIFF_BYTES } from './sniff-media-type';
