import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedMediaPart, UnifiedMediaSource } from '../../unified/unified-request';
import { imageTypeOf } from '../shared/image-type-of';
import { parseDataUri } from '../shared/parse-data-uri';
import { urlExtension } from '../shared/url-extension';
import type { MessagesDocumentBlock, MessagesImageBlock } from './messages-types';

/** The image types the Messages API accepts (vision guide). */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function notAllowed(param: string, detail: string): GatewayError {
  return new GatewayError('GW_MEDIA_NOT_ALLOWED', `${param}: ${detail}`, { param });
}

/** A `data:` URL that slipped into a url source is inlined, because the upstream only fetches http(s). */
function inlineDataUri(source: UnifiedMediaSource): UnifiedMediaSource {
  if (source.kind !== 'url') return source;
  const inline = parseDataUri(source.url);
  return inline ? { kind: 'base64', mediaType: inline.mediaType, data: inline.data } : source;
}

function encodeImage(source: UnifiedMediaSource, path: string): MessagesImageBlock['source'] {
  if (source.kind === 'url') return { type: 'url', url: source.url };
  const declared = source.mediaType.toLowerCase() === 'image/jpg' ? 'image/jpeg' : source.mediaType.toLowerCase();
  // Whatever format the image came in (a Gemini inlineData, a Responses input_file), its bytes name its type.
  const mediaType = imageTypeOf(declared, source.data);
  if (!IMAGE_TYPES.has(mediaType)) {
    throw notAllowed(path, `${source.mediaType} is not accepted (images must be image/jpeg, image/png, image/gif or image/webp)`);
  }
  return { type: 'base64', media_type: mediaType, data: source.data };
}

function encodeDocument(source: UnifiedMediaSource, path: string): MessagesDocumentBlock['source'] {
  if (source.kind === 'url') {
    // Anthropic fetches PDFs only by URL (its url document source); a link without an extension is taken as it comes.
    const extension = urlExtension(source.url);
    if (extension !== undefined && extension !== 'pdf') throw notAllowed(path, `a .${extension} document by URL is not accepted (by URL, documents must be PDF)`);
    return { type: 'url', url: source.url };
  }
  const mediaType = source.mediaType.toLowerCase();
  if (mediaType === 'application/pdf') return { type: 'base64', media_type: 'application/pdf', data: source.data };
  if (mediaType.startsWith('text/')) {
    return { type: 'text', media_type: 'text/plain', data: Buffer.from(source.data, 'base64').toString('utf8') };
  }
  throw notAllowed(path, `${source.mediaType} is not accepted (documents must be application/pdf or text)`);
}

/**
 * A unified media part → an `image` or `document` block. Audio and video have no Messages form and
 * would change the answer if dropped: GW_MEDIA_NOT_ALLOWED (415) naming the client's field (the Messages body's where
 * the part has no `clientPath`).
 */
export function encodeMessagesMedia(part: UnifiedMediaPart, bodyPath: string): MessagesImageBlock | MessagesDocumentBlock {
  const path = part.clientPath ?? bodyPath;
  const cache = part.cacheControl ? { cache_control: part.cacheControl } : {};
  const source = inlineDataUri(part.source);
  switch (part.type) {
    case 'image':
      return { type: 'image', source: encodeImage(source, path), ...cache };
    case 'file':
      return { type: 'document', source: encodeDocument(source, path), ...(part.filename ? { title: part.filename } : {}), ...cache };
    case 'audio':
    case 'video': {
      const mediaType = source.kind === 'base64' ? ` (${source.mediaType})` : '';
      throw notAllowed(path, `${part.type} input${mediaType} is not accepted by a Messages upstream`);
    }
  }
}
