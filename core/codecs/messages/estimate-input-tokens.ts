import type { UnifiedPart, UnifiedRequest } from '../../unified/unified-request';

/** Rough size of one image or document in tokens (Anthropic: about width×height/750, capped near 1600). */
const MEDIA_TOKENS = 1600;
const CHARS_PER_TOKEN = 4;

function partChars(part: UnifiedPart): { chars: number; media: number } {
  switch (part.type) {
    case 'text':
      return { chars: part.text.length, media: 0 };
    case 'reasoning':
      return { chars: part.text.length, media: 0 };
    case 'tool_call':
      return { chars: part.name.length + part.arguments.length, media: 0 };
    case 'tool_result':
      return part.content.reduce(
        (sum, inner) => {
          const size = partChars(inner);
          return { chars: sum.chars + size.chars, media: sum.media + size.media };
        },
        { chars: 0, media: 0 },
      );
    default:
      return { chars: 0, media: 1 };
  }
}

/**
 * A quick input-token estimate (characters / 4, a fixed amount per image or file) for answering
 * `/v1/messages/count_tokens` on platforms that have no token counter of their own.
 */
export function estimateInputTokens(req: UnifiedRequest): number {
  let chars = req.system.reduce((sum, text) => sum + text.length, 0);
  let media = 0;
  for (const message of req.messages) {
    for (const part of message.content) {
      const size = partChars(part);
      chars += size.chars;
      media += size.media;
    }
  }
  for (const tool of req.tools ?? []) {
    chars += tool.name.length + (tool.description?.length ?? 0) + JSON.stringify(tool.parameters).length;
  }
  return Math.max(1, Math.ceil(chars / CHARS_PER_TOKEN) + media * MEDIA_TOKENS);
}
