import { GatewayError } from '../../errors/gateway-error';
import { SNIFF_BYTES, sniffMediaType } from '../../media/sniff-media-type';
import type { UnifiedMediaSource } from '../../unified/unified-request';
import { isDataUri, parseDataUri } from './parse-data-uri';

/** Why a `data:` URI the gateway cannot read is refused. */
export const DATA_URI_SHAPE = 'is not a readable data URI (expected data:<mime>;base64,<data>)';
/** A URL's scheme (`https:`, `gs:`); base64 has no colon. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const BARE_BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** Base64 characters that hold SNIFF_BYTES bytes. */
const SNIFF_CHARS = Math.ceil(SNIFF_BYTES / 3) * 4;

/**
 * An `image_url` as spec 2.1 has it, "a URL or base64 data": a data URI, bare base64 (its type read from its first
 * bytes, as image edits do), or a URL, left to the platform. Bare base64 of no known type is refused: no upstream
 * could be told what it is, and sent on as a URL it would fail there.
 */
export function decodeMediaReference(value: string, param: string): UnifiedMediaSource {
  const inline = parseDataUri(value);
  if (inline) return { kind: 'base64', mediaType: inline.mediaType, data: inline.data };
  if (isDataUri(value)) throw invalid(param, DATA_URI_SHAPE);
  if (HAS_SCHEME.test(value) || value.length < 16) return { kind: 'url', url: value };
  const data = /\s/.test(value) ? value.replace(/\s+/g, '') : value;
  if (!BARE_BASE64.test(data)) return { kind: 'url', url: value };
  const mediaType = sniffMediaType(Buffer.from(data.slice(0, SNIFF_CHARS), 'base64'));
  if (!mediaType) throw invalid(param, 'is base64 data of a type that cannot be told from its bytes; send a data URI naming it (data:<mime>;base64,…)');
  return { kind: 'base64', mediaType, data };
}

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${detail}`, { param });
}
