import type { FinishReason } from '../../unified/unified-response';

/**
 * Gemini `finishReason` → unified. Gemini ends a tool-calling turn with plain `STOP`, so the caller
 * says whether any functionCall part was seen. A whole (non-streaming) candidate without one counts as
 * `STOP`; the stream decoder never passes `undefined`, since there it means the stream was cut.
 * @see fixtures README, stop-reason table.
 */
export function mapGeminiFinishReason(reason: string | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case undefined:
    case 'STOP':
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'content_filter';
    default:
      return 'other';
  }
}
