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
      const nonText = source.content.findIndex((inner) => inner.type !== 'text');
      if (nonText >= 0) throw invalid(`${path}.source.content[${nonText}]`, 'only text blocks are supported in a content document');
      return textSource(source.content.map((inner) => inner.text).join('\n'));
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

/**
 * An `image` or `document` block (already schema-validated) → a media part. Documents (PDF, plain
 * text, content sources) become `file` parts; a document `title` is kept as the file name.
 */
export function decodeMessagesMedia(block: MessagesRawBlock, path: string): UnifiedMediaPart {
  const cacheControl = block.cache_control && typeof block.cache_control === 'object' ? { cacheControl: block.cache_control as Record<string, unknown> } : {};
  if (block.type === 'image') {
    return { type: 'image', source: decodeImageSource(block.source as MessagesImageSource, path), ...cacheControl };
  }
  const title = typeof block.title === 'string' && block.title ? { filename: block.title } : {};
  return { type: 'file', source: decodeDocumentSource(block.source as MessagesDocumentSource, path), ...title, ...cacheControl };
}
