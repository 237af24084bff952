import type { UnifiedMediaPart } from '../../unified/unified-request';

const BY_EXTENSION: Record<string, UnifiedMediaPart['type']> = {
  png: 'image', jpg: 'image', jpeg: 'image', webp: 'image', gif: 'image', heic: 'image', heif: 'image',
  wav: 'audio', mp3: 'audio', aiff: 'audio', aac: 'audio', ogg: 'audio', flac: 'audio', m4a: 'audio',
  mp4: 'video', mpeg: 'video', mpg: 'video', mov: 'video', avi: 'video', flv: 'video', webm: 'video', wmv: 'video', '3gp': 'video', '3gpp': 'video',
  pdf: 'file', txt: 'file',
};

/**
 * The gateway's chat format carries image, audio and video URLs in `image_url` parts (spec 4.1), so the
 * kind of a plain URL is guessed from its path extension; anything unrecognised stays an image, as in OpenAI.
 */
export function guessMediaKindFromUrl(url: string): UnifiedMediaPart['type'] {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Not an absolute URL: use the text as it is.
  }
  const dot = path.lastIndexOf('.');
  if (dot === -1) return 'image';
  return BY_EXTENSION[path.slice(dot + 1).toLowerCase()] ?? 'image';
}
