/** Bytes enough for every signature below (EBML doc types sit within the first few dozen bytes). */
export const SNIFF_BYTES = 64;

const ASF_GUID = [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c];

/** ISO base media (`ftyp`) major brands → MIME type; any other brand is MP4 video. */
const FTYP_BRANDS: Readonly<Record<string, string>> = {
  heic: 'image/heic', heix: 'image/heic', hevc: 'image/heic', hevx: 'image/heic', heim: 'image/heic', heis: 'image/heic',
  mif1: 'image/heif', msf1: 'image/heif', heif: 'image/heif',
  avif: 'image/avif', avis: 'image/avif',
  'qt  ': 'video/quicktime',
  'M4A ': 'audio/mp4', 'M4B ': 'audio/mp4',
};

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, i) => bytes[offset + i] === byte);
}

function sniffRiff(bytes: Uint8Array): string | undefined {
  if (ascii(bytes, 0, 4) !== 'RIFF') return undefined;
  switch (ascii(bytes, 8, 12)) {
    case 'WEBP': return 'image/webp';
    case 'WAVE': return 'audio/wav';
    case 'AVI ': return 'video/x-msvideo';
    default: return undefined;
  }
}

function sniffIsoBmff(bytes: Uint8Array): string | undefined {
  if (ascii(bytes, 4, 8) !== 'ftyp') return undefined;
  const brand = ascii(bytes, 8, 12);
  if (brand.startsWith('3g')) return 'video/3gpp';
  return FTYP_BRANDS[brand] ?? 'video/mp4';
}

/** MPEG audio frames: `ID3` tags, or an 11-bit frame sync whose layer bits tell MP3 (layer I-III) from AAC ADTS (00). */
function sniffMpegAudio(bytes: Uint8Array): string | undefined {
  if (ascii(bytes, 0, 3) === 'ID3') return 'audio/mpeg';
  if (ascii(bytes, 0, 4) === 'ADIF') return 'audio/aac';
  if (bytes.length < 2 || bytes[0] !== 0xff || (bytes[1] & 0xe0) !== 0xe0) return undefined;
  const layer = (bytes[1] >> 1) & 0x03;
  if (layer !== 0) return 'audio/mpeg';
  return (bytes[1] & 0xf6) === 0xf0 ? 'audio/aac' : undefined;
}

function sniffMatroska(bytes: Uint8Array): string | undefined {
  if (!startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return undefined;
  return ascii(bytes, 0, Math.min(bytes.length, SNIFF_BYTES)).includes('webm') ? 'video/webm' : 'video/x-matroska';
}

/**
 * The MIME type of media bytes from their magic numbers: the image, audio and video formats models take, plus a few
 * common ones that must be recognised to be refused by name (gif, bmp, tiff, avif, pdf). Undefined when unknown.
 * Pass at least the first `SNIFF_BYTES` bytes.
 */
export function sniffMediaType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  const head4 = ascii(bytes, 0, 4);
  if (head4 === 'GIF8') return 'image/gif';
  if (head4 === 'II*\0' || head4 === 'MM\0*') return 'image/tiff';
  if (head4 === 'fLaC') return 'audio/flac';
  if (head4 === 'OggS') return 'audio/ogg';
  if (head4 === '%PDF') return 'application/pdf';
  if (head4 === 'FORM') {
    const form = ascii(bytes, 8, 12);
    return form === 'AIFF' || form === 'AIFC' ? 'audio/aiff' : undefined;
  }
  if (ascii(bytes, 0, 3) === 'FLV' && bytes[3] === 0x01) return 'video/x-flv';
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0xba]) || startsWith(bytes, [0x00, 0x00, 0x01, 0xb3])) return 'video/mpeg';
  if (startsWith(bytes, ASF_GUID)) return 'video/x-ms-wmv';
  if (ascii(bytes, 0, 2) === 'BM' && bytes.length >= 14) return 'image/bmp';
  return sniffRiff(bytes) ?? sniffIsoBmff(bytes) ?? sniffMatroska(bytes) ?? sniffMpegAudio(bytes);
}

/** Content types that say nothing about the bytes: the bytes are sniffed instead. */
const GENERIC_TYPES = new Set(['application/octet-stream', 'binary/octet-stream', 'application/unknown', 'application/x-download', '']);

/**
 * What media declared as `declared` (a content type) are: that type, lower-case and without parameters; for a
 * generic one, what the first bytes show, else `application/octet-stream`. Pass at least the first SNIFF_BYTES bytes.
 */
export function mediaTypeOf(declared: string | undefined, bytes: Uint8Array): string {
  const bare = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (!GENERIC_TYPES.has(bare)) return bare;
  return sniffMediaType(bytes.subarray(0, SNIFF_BYTES)) ?? 'application/octet-stream';
}
