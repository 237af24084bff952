import type { UnifiedMediaPart, UnifiedMessage, UnifiedPart, UnifiedRequest } from './unified-request';

export function isMediaPart(part: UnifiedPart): part is UnifiedMediaPart {
  return part.type === 'image' || part.type === 'audio' || part.type === 'video' || part.type === 'file';
}

/** The conversation's media parts, those inside tool results too, in order. */
export function mediaPartsOf(messages: readonly UnifiedMessage[]): UnifiedMediaPart[] {
  return messages.flatMap((message) =>
    message.content.flatMap((part): UnifiedMediaPart[] => {
      if (part.type === 'tool_result') return part.content.filter(isMediaPart);
      return isMediaPart(part) ? [part] : [];
    }),
  );
}

/** The request with each media part found in `replacements` (by identity) swapped for its replacement, tool results too. */
export function withMediaReplaced(request: UnifiedRequest, replacements: ReadonlyMap<UnifiedMediaPart, UnifiedMediaPart>): UnifiedRequest {
  const swap = <T extends UnifiedPart>(part: T): T | UnifiedMediaPart => (isMediaPart(part) ? (replacements.get(part) ?? part) : part);
  return {
    ...request,
    messages: request.messages.map((message) => ({
      ...message,
      content: message.content.map((part) => (part.type === 'tool_result' ? { ...part, content: part.content.map(swap) } : swap(part))) as UnifiedMessage['content'],
    })),
  };
}
