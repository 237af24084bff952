import { SNIFF_BYTES, sniffMediaType } from '../../media/sniff-media-type';

const BARE_BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** Base64 characters that hold SNIFF_BYTES bytes. */
const SNIFF_CHARS = Math.ceil(SNIFF_BYTES / 3) * 4;
/** Shorter text is a word, not data. */
const MIN_CHARS = 16;

/**
 * Text that is bare base64 (line breaks allowed, as MIME wraps it): its data without them, and its type read from
 * its first bytes (undefined when they match no known format). Undefined when the text is not bare base64.
 */
export function readBareBase64(text: string): { data: string; mediaType: string | undefined } | undefined {
  const data = /\s/.test(text) ? text.replace(/\s+/g, '') : text;
  if (data.length < MIN_CHARS || !BARE_BASE64.test(data)) return undefined;
  return { data, mediaType: sniffBase64Type(data) };
}

/** The type base64 data's first bytes tell; undefined when they match no known format. */
export function sniffBase64Type(data: string): string | undefined {
  return sniffMediaType(Buffer.from(data.slice(0, SNIFF_CHARS), 'base64'));
}
