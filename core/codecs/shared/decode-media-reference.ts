import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedMediaSource } from '../../unified/unified-request';
import { isDataUri, parseDataUri } from './parse-data-uri';
import { imageTypeOf } from './image-type-of';
import { readBareBase64 } from './read-bare-base64';

/** Why a `data:` URI the gateway cannot read is refused. */
export const DATA_URI_SHAPE = 'is not a readable data URI (expected data:<mime>;base64,<data>)';
/** A URL's scheme (`https:`, `gs:`); base64 has no colon. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * An `image_url` (chat's, a Responses `input_image`'s) as spec 2.1 has it, "a URL or base64 data": a data URI, bare
 * base64 (its type read from its first bytes, as image edits do), or a URL, left to the platform. Bare base64 of no
 * known type is refused: no upstream could be told what it is, and sent on as a URL it would fail there. Text is
 * refused with a 415 (DECISIONS §7: an image_url carries image, audio or video): it went into the prompt as text where
 * a platform takes text documents.
 */
export function decodeMediaReference(value: string, param: string): UnifiedMediaSource {
  const inline = parseDataUri(value);
  if (inline && /^text\//i.test(inline.mediaType)) {
    throw new GatewayError('GW_MEDIA_NOT_ALLOWED', `${param}: ${inline.mediaType.split(';')[0].toLowerCase()} is not an image, audio or video, the media this part carries`, { param });
  }
  if (inline) return { kind: 'base64', mediaType: imageTypeOf(inline.mediaType, inline.data), data: inline.data };
  if (isDataUri(value)) throw invalid(param, DATA_URI_SHAPE);
  const bare = HAS_SCHEME.test(value) ? undefined : readBareBase64(value);
  if (!bare) return { kind: 'url', url: value };
  if (!bare.mediaType) throw invalid(param, 'is base64 data of a type that cannot be told from its bytes; send a data URI naming it (data:<mime>;base64,…)');
  return { kind: 'base64', mediaType: bare.mediaType, data: bare.data };
}

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${detail}`, { param });
}
