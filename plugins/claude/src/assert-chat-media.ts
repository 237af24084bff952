import { GatewayError, mediaPartsOf, urlExtension, type UnifiedMediaPart, type UnifiedRequest } from '@gateway/core';

/** The image types the Messages API takes (vision guide). */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'image/webp']);

function describe(part: UnifiedMediaPart): string {
  const type = part.source.kind === 'base64' ? ` (${part.source.mediaType})` : '';
  return `${part.type === 'file' ? 'a file' : part.type === 'image' ? 'an image' : `${part.type} input`}${type}`;
}

function isAllowed(part: UnifiedMediaPart): boolean {
  const { source } = part;
  if (part.type === 'image') return source.kind === 'url' || IMAGE_TYPES.has(source.mediaType.toLowerCase());
  if (part.type === 'file') {
    if (source.kind === 'base64') return source.mediaType.toLowerCase() === 'application/pdf';
    const extension = urlExtension(source.url);
    return extension === undefined || extension === 'pdf';
  }
  return false;
}

/**
 * Chat-completions clients of the Claude platform may send images (data URI or URL) and PDF files only
 * (DECISIONS §7); anything else answers 415 naming the client's field (recorded by the chat decoder) and pointing at
 * the messages endpoint, which takes richer files.
 */
export function assertChatMediaAllowed(request: UnifiedRequest, platform: string): void {
  const refused = mediaPartsOf(request.messages).find((part) => !isAllowed(part));
  if (!refused) return;
  const param = refused.clientPath ?? 'messages';
  throw new GatewayError(
    'GW_MEDIA_NOT_ALLOWED',
    `${param}: ${describe(refused)} is not accepted by /${platform}/v1/chat/completions, which takes images (JPEG, PNG, GIF, WebP) and PDF files only; /${platform}/v1/messages takes richer files`,
    { param },
  );
}
