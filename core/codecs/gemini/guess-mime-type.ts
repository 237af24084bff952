/** MIME types of the formats Gemini accepts, by file extension. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/md',
  html: 'text/html',
  csv: 'text/csv',
  xml: 'text/xml',
  wav: 'audio/wav',
  mp3: 'audio/mp3',
  aiff: 'audio/aiff',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  mpeg: 'video/mpeg',
  mpg: 'video/mpeg',
  mov: 'video/mov',
  avi: 'video/avi',
  flv: 'video/x-flv',
  webm: 'video/webm',
  wmv: 'video/wmv',
  '3gp': 'video/3gpp',
};

/** What to assume when the URL has no known extension (Gemini requires a MIME type on fileData). */
const BY_KIND: Readonly<Record<string, string>> = {
  image: 'image/jpeg',
  audio: 'audio/mp3',
  video: 'video/mp4',
  file: 'application/pdf',
};

/** The MIME type of a media URL, from its path's extension, else a default for the part type. */
export function guessMimeType(url: string, kind: 'image' | 'audio' | 'video' | 'file'): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // not an absolute URL: use it as a path
  }
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) || BY_KIND[kind] || 'application/octet-stream';
}
