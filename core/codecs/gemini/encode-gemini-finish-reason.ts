import type { FinishReason } from '../../unified/unified-response';

/** The turn ended in a function call that is not whole (its arguments cut short): Gemini's own word for it. */
export const MALFORMED_FUNCTION_CALL = 'MALFORMED_FUNCTION_CALL';

/**
 * Unified → Gemini `finishReason`; tool calls end with `STOP`, as Gemini itself does. An end no format names
 * (`other`: a compatible service's own finish reason, Claude's `pause_turn`) is `STOP`, as chat and Messages clients
 * are told (`stop`, `end_turn`): Gemini's `OTHER` is a failed turn ("Response stopped for other reasons", Gemini CLI).
 */
export function encodeGeminiFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'STOP';
  }
}
