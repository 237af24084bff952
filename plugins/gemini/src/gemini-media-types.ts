/**
 * The media formats the platform accepts (spec 4.1, DECISIONS §7), as registered MIME types:
 * image png, jpeg, webp, heic, heif; audio wav, mp3, aiff, aac, ogg, flac;
 * video mp4, mpeg, mov, avi, x-flv, mpg, webm, wmv, 3gpp.
 */
export const GEMINI_MEDIA_TYPES: readonly string[] = Object.freeze([
  'image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif',
  'audio/wav', 'audio/mpeg', 'audio/aiff', 'audio/aac', 'audio/ogg', 'audio/flac',
  'video/mp4', 'video/mpeg', 'video/quicktime', 'video/x-msvideo', 'video/x-flv', 'video/webm', 'video/x-ms-wmv', 'video/3gpp',
]);

const ACCEPTED = new Set(GEMINI_MEDIA_TYPES);

/**
 * Other spellings of the same formats, seen from clients, servers and Gemini's own docs (`audio/mp3`, `video/mov`,
 * `video/avi`, `video/wmv`, `video/mpg`), and chat `input_audio` formats (`audio/<format>`).
 */
const ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/heic-sequence': 'image/heic',
  'image/heif-sequence': 'image/heif',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/mp3': 'audio/mpeg',
  'audio/mpeg3': 'audio/mpeg',
  'audio/x-mpeg-3': 'audio/mpeg',
  'audio/x-mp3': 'audio/mpeg',
  'audio/x-aiff': 'audio/aiff',
  'audio/aif': 'audio/aiff',
  'audio/x-aac': 'audio/aac',
  'audio/aacp': 'audio/aac',
  'audio/x-flac': 'audio/flac',
  'audio/vorbis': 'audio/ogg',
  'audio/opus': 'audio/ogg',
  'application/ogg': 'audio/ogg',
  'video/mov': 'video/quicktime',
  'video/avi': 'video/x-msvideo',
  'video/msvideo': 'video/x-msvideo',
  'video/flv': 'video/x-flv',
  'video/mpg': 'video/mpeg',
  'video/x-mpeg': 'video/mpeg',
  'video/wmv': 'video/x-ms-wmv',
  'video/x-wmv': 'video/x-ms-wmv',
  'video/3gp': 'video/3gpp',
};

/** `Audio/MP3; rate=44100` → `audio/mpeg`: the registered type the platform takes, or undefined when it takes none. */
export function toGeminiMediaType(mediaType: string): string | undefined {
  const bare = mediaType.split(';')[0].trim().toLowerCase();
  const canonical = ALIASES[bare] ?? bare;
  return ACCEPTED.has(canonical) ? canonical : undefined;
}

/** The message of a refused type, listing what is accepted. */
export function describeRefusedMediaType(mediaType: string): string {
  const shown = mediaType.split(';')[0].trim().toLowerCase() || 'an unknown type';
  return `${shown} is not an accepted media type on this platform; accepted: ${GEMINI_MEDIA_TYPES.join(', ')}`;
}
