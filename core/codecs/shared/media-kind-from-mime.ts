import type { UnifiedMediaPart } from '../../unified/unified-request';

/** Which unified media part a MIME type becomes: by its top-level type, anything else is a file. */
export function mediaKindFromMime(mediaType: string): UnifiedMediaPart['type'] {
  const top = mediaType.slice(0, mediaType.indexOf('/')).toLowerCase();
  if (top === 'image' || top === 'audio' || top === 'video') return top;
  return 'file';
}
