import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedMediaSource } from '../../unified/unified-request';
import { isDataUri, parseDataUri } from './parse-data-uri';
import { readBareBase64, sniffBase64Type } from './read-bare-base64';

/** Why a `data:` URI the gateway cannot read is refused. */
export const DATA_URI_SHAPE = 'is not a readable data URI (expected data:<mime>;base64,<data>)';
/** A URL's scheme (`https:`, `gs:`); base64 has no colon. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * An `image_url` as spec 2.1 has it, "a URL or base64 data": a data URI, bare base64 (its type read from its first
 * bytes, as image edits do), or a URL, left to the platform. Bare base64 of no known type is refused: no upstream
 * could be told what it is, and sent on as a URL it would fail there.
 */
export function decodeMediaReference(value: string, param: string): UnifiedMediaSource {
  const inline = parseDataUri(value);
  if (inline) return { kind: 'base64', mediaType: imageTypeOf(inline.mediaType, inline.data), data: inline.data };
  if (isDataUri(value)) throw invalid(param, DATA_URI_SHAPE);
  const bare = HAS_SCHEME.test(value) ? undefined : readBareBase64(value);
  if (!bare) return { kind: 'url', url: value };
  if (!bare.mediaType) throw invalid(param, 'is base64 data of a type that cannot be told from its bytes; send a data URI naming it (data:<mime>;base64,…)');
  return { kind: 'base64', mediaType: bare.mediaType, data: bare.data };
}

/**
 * An image's type as its bytes tell it, where they contradict the type declared (a PNG label on JPEG bytes, which
 * OpenAI reads and Anthropic refuses: "Image does not match the provided media type"); else the declared one.
 */
function imageTypeOf(declared: string, data: string): string {
  if (!declared.startsWith('image/')) return declared;
  const sniffed = sniffBase64Type(data);
  return sniffed?.startsWith('image/') && sniffed !== declared ? sniffed : declared;
}

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${detail}`, { param });
}
