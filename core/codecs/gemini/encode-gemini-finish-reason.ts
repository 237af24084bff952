import type { FinishReason } from '../../unified/unified-response';

/** The turn ended in a function call that is not whole (its arguments cut short): Gemini's own word for it. */
export const MALFORMED_FUNCTION_CALL = 'MALFORMED_FUNCTION_CALL';

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
