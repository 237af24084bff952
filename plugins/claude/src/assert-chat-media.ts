import { GatewayError, type UnifiedMediaPart, type UnifiedPart, type UnifiedRequest } from '@gateway/core';

/** The image types the Messages API takes (vision guide). */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'image/webp']);

function describe(part: UnifiedMediaPart): string {
  const type = part.source.kind === 'base64' ? ` (${part.source.mediaType})` : '';
  return `${part.type === 'file' ? 'a file' : part.type === 'image' ? 'an image' : `${part.type} input`}${type}`;
}

function urlExtension(url: string): string | undefined {
  try {
    const match = /\.([A-Za-z0-9]+)$/.exec(new URL(url).pathname);
    return match?.[1].toLowerCase();
  } catch {
    return undefined;
  }
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

/** Media parts of one unified message with their content index in the client's message. */
function mediaOf(content: readonly UnifiedPart[]): Array<{ part: UnifiedMediaPart; index: number; message: number }> {
  const out: Array<{ part: UnifiedMediaPart; index: number; message: number }> = [];
  content.forEach((part, j) => {
    if (part.type === 'tool_result') {
      // Chat sends one tool message per result: the result's position is its own message.
      part.content.forEach((inner, k) => {
        if (inner.type !== 'text') out.push({ part: inner, index: k, message: j });
      });
    } else if (part.type === 'image' || part.type === 'audio' || part.type === 'video' || part.type === 'file') {
      out.push({ part, index: j, message: 0 });
    }
  });
  return out;
}

/**
 * Chat-completions clients of the Claude platform may send images (data URI or URL) and PDF files only
 * (DECISIONS §7); anything else answers 415 naming the field and pointing at the messages endpoint, which takes
 * richer files. Indexes are the client's: leading system messages were lifted out and each tool message holds one
 * result.
 */
export function assertChatMediaAllowed(request: UnifiedRequest, platform: string): void {
  let chatIndex = request.system.length;
  for (const message of request.messages) {
    for (const { part, index, message: offset } of mediaOf(message.content)) {
      if (isAllowed(part)) continue;
      const param = `messages[${chatIndex + offset}].content[${index}]`;
      throw new GatewayError(
        'GW_MEDIA_NOT_ALLOWED',
        `${param}: ${describe(part)} is not accepted by /${platform}/v1/chat/completions, which takes images (JPEG, PNG, GIF, WebP) and PDF files only; /${platform}/v1/messages takes richer files`,
        { param },
      );
    }
    chatIndex += message.role === 'tool' ? message.content.length : 1;
  }
}
