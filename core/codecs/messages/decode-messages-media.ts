import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedMediaPart, UnifiedMediaSource } from '../../unified/unified-request';
import type { MessagesDocumentSource, MessagesImageSource, MessagesRawBlock } from './messages-types';

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${detail}`, { param });
}

function textSource(text: string): UnifiedMediaSource {
  return { kind: 'base64', mediaType: 'text/plain', data: Buffer.from(text, 'utf8').toString('base64') };
}

function decodeDocumentSource(source: MessagesDocumentSource, path: string): UnifiedMediaSource {
  switch (source.type) {
    case 'base64':
      return { kind: 'base64', mediaType: source.media_type, data: source.data };
    case 'url':
      return { kind: 'url', url: source.url };
    case 'text':
      return textSource(source.data);
    case 'content': {
      if (typeof source.content === 'string') return textSource(source.content);
      const other = source.content.findIndex((inner) => inner.type !== 'text' && inner.type !== 'image');
      if (other >= 0) throw invalid(`${path}.source.content[${other}]`, 'only text and image blocks are allowed in a content document');
      // Its images go beside it (see documentImages).
      return textSource(source.content.flatMap((inner) => (inner.type === 'text' ? [inner.text] : [])).join('\n'));
    }
    case 'file':
      throw invalid(`${path}.source`, 'file_id sources (Files API) are not supported by the gateway');
  }
}

function decodeImageSource(source: MessagesImageSource, path: string): UnifiedMediaSource {
  switch (source.type) {
    case 'base64':
      return { kind: 'base64', mediaType: source.media_type, data: source.data };
    case 'url':
      return { kind: 'url', url: source.url };
    case 'file':
      throw invalid(`${path}.source`, 'file_id sources (Files API) are not supported by the gateway');
  }
}

function imagePart(source: MessagesImageSource, path: string): UnifiedMediaPart {
  return { type: 'image', source: decodeImageSource(source, path), clientPath: path };
}

/** The image blocks of a `content` document (text and images, as the API allows), as image parts after its text. */
function documentImages(source: MessagesDocumentSource, path: string): UnifiedMediaPart[] {
  if (source.type !== 'content' || typeof source.content === 'string') return [];
  return source.content.flatMap((inner, k) =>
    inner.type === 'image' ? [imagePart(inner.source as MessagesImageSource, `${path}.source.content[${k}]`)] : [],
  );
}

/**
 * An `image` or `document` block (already schema-validated) → media parts. Documents (PDF, plain text, content
 * sources) become `file` parts, a document `title` kept as the file name; the images of a content document follow
 * its text as image parts.
 */
export function decodeMessagesMedia(block: MessagesRawBlock, path: string): UnifiedMediaPart[] {
  const cacheControl = block.cache_control && typeof block.cache_control === 'object' ? { cacheControl: block.cache_control as Record<string, unknown> } : {};
  if (block.type === 'image') {
    return [{ ...imagePart(block.source as MessagesImageSource, path), ...cacheControl }];
  }
  const title = typeof block.title === 'string' && block.title ? { filename: block.title } : {};
  const source = block.source as MessagesDocumentSource;
  const document: UnifiedMediaPart = { type: 'file', source: decodeDocumentSource(source, path), ...title, ...cacheControl, clientPath: path };
  return [document, ...documentImages(source, path)];
}
