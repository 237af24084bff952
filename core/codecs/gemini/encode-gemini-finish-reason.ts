import type { FinishReason } from '../../unified/unified-response';

/** Unified → Gemini `finishReason`; tool calls end with `STOP`, as Gemini itself does. */
export function encodeGeminiFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'stop':
    case 'tool_calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}
