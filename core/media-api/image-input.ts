import { parseDataUri } from '../codecs/shared/parse-data-uri';
import { readBareBase64 } from '../codecs/shared/read-bare-base64';
import { GatewayError } from '../errors/gateway-error';
import type { UploadedFile } from '../hooks/plugin-api';
import { sniffMediaType } from '../media/sniff-media-type';

/**
 * One input image (image edits, video references) as the client gave it: an uploaded file, base64 data (a data URI
 * or bare base64), a URL, or an upstream file id. Platforms decide what they can send on.
 */
export type ImageInput =
  | { kind: 'file'; field: string; filename: string; mediaType: string; data: Buffer }
  | { kind: 'base64'; mediaType: string; data: string }
  | { kind: 'url'; url: string }
  | { kind: 'file_id'; fileId: string };

/** Base64 or its URL-safe form, line breaks allowed (MIME wraps at 76). One pass, no backtracking. */
const BASE64_PAYLOAD = /^[\sA-Za-z0-9+/_-]*(?:=\s*){0,2}$/;

/**
 * Whether text is an image's base64 payload: at least one base64 character and nothing else. Node's decoder drops
 * what it cannot read, so an empty or garbled payload would otherwise pass as an image of no bytes.
 */
export function isBase64Payload(text: string): boolean {
  return BASE64_PAYLOAD.test(text) && /[A-Za-z0-9+/_-]/.test(text);
}

/** A string image reference: `https://…`, `data:<mime>;base64,…` or bare base64 (its type read from the bytes). */
export function parseImageReference(value: string, field: string): ImageInput {
  const text = value.trim();
  const dataUri = parseDataUri(text);
  if (dataUri) {
    if (!isBase64Payload(dataUri.data)) throw new GatewayError('GW_INVALID_REQUEST', `${field}: the data URI's payload is not base64 image data`, { param: field });
    return { kind: 'base64', mediaType: dataUri.mediaType, data: dataUri.data };
  }
  if (/^https?:\/\//i.test(text)) return { kind: 'url', url: text };
  const bare = readBareBase64(text);
  if (bare) return { kind: 'base64', mediaType: bare.mediaType ?? 'image/png', data: bare.data };
  throw new GatewayError('GW_INVALID_REQUEST', `${field}: must be an http(s) URL, a data URI or base64 image data`, { param: field });
}

/** `{image_url}` or `{file_id}` (OpenAI's JSON form of an image reference). */
export function parseImageObject(value: { image_url?: string; file_id?: string }, field: string): ImageInput {
  if (typeof value.image_url === 'string') return parseImageReference(value.image_url, `${field}.image_url`);
  if (typeof value.file_id === 'string' && value.file_id) return { kind: 'file_id', fileId: value.file_id };
  throw new GatewayError('GW_INVALID_REQUEST', `${field}: needs image_url or file_id`, { param: field });
}

/** An uploaded image file; an empty one is refused here, as an empty data URI is, rather than sent as an image of no bytes. */
export function fileImageInput(file: UploadedFile): ImageInput {
  if (file.data.length === 0) throw new GatewayError('GW_INVALID_REQUEST', `${file.field}: the file "${file.filename}" is empty`, { param: file.field });
  const mediaType = file.mediaType && file.mediaType !== 'application/octet-stream' ? file.mediaType : sniffMediaType(file.data) ?? file.mediaType;
  return { kind: 'file', field: file.field, filename: file.filename, mediaType, data: file.data };
}

/** The bytes of an inline image (file or base64); undefined for URLs and file ids. */
export function imageInputBytes(input: ImageInput): { data: Buffer; mediaType: string } | undefined {
  if (input.kind === 'file') return { data: input.data, mediaType: input.mediaType };
  if (input.kind === 'base64') return { data: Buffer.from(input.data, 'base64'), mediaType: input.mediaType };
  return undefined;
}

/** A data URI for inline images, the URL for URLs; undefined for file ids. */
export function imageInputUrl(input: ImageInput): string | undefined {
  switch (input.kind) {
    case 'file':
      return `data:${input.mediaType};base64,${input.data.toString('base64')}`;
    case 'base64':
      return `data:${input.mediaType};base64,${input.data}`;
    case 'url':
      return input.url;
    default:
      return undefined;
  }
}
