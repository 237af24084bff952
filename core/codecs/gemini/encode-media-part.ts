import type { UnifiedMediaPart } from '../../unified/unified-request';
import { parseDataUri } from '../shared/parse-data-uri';
import type { GeminiPart } from './gemini-types';
import { guessMimeType } from './guess-mime-type';
import { isYouTubeUrl } from './is-youtube-url';

/** base64 → inlineData; a URL → fileData with the MIME type its extension implies (the plugin inlines fetched URLs first). */
export function encodeMediaPart(part: UnifiedMediaPart): GeminiPart {
  const { source } = part;
  if (source.kind === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
  const dataUri = parseDataUri(source.url);
  if (dataUri) return { inlineData: { mimeType: dataUri.mediaType, data: dataUri.data } };
  if (isYouTubeUrl(source.url)) return { fileData: { fileUri: source.url } };
  return { fileData: { mimeType: guessMimeType(source.url, part.type), fileUri: source.url } };
}
