import { GatewayError } from '../../errors/gateway-error';
import type { FinishReason } from '../../unified/unified-response';

/**
 * Finish reasons that say the turn failed rather than ended: a call the model could not form or should not have
 * made, or a stop for no stated reason. No other format has a word for them; told as an answer they read as the
 * model having nothing to say (an agent stops), so they are an upstream error, which the SDKs retry.
 */
const FAILED_TURN = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'MISSING_THOUGHT_SIGNATURE', 'OTHER', 'FINISH_REASON_UNSPECIFIED']);

/** The error a failed turn's finish reason stands for, with Gemini's `finishMessage`; undefined for an ended turn. */
export function geminiTurnFailure(reason: string | undefined, finishMessage: string | undefined): GatewayError | undefined {
  if (reason === undefined || !FAILED_TURN.has(reason)) return undefined;
  const words = finishMessage?.trim() ? `: ${finishMessage.trim()}` : '';
  return new GatewayError('GW_UPSTREAM_ERROR', `upstream Gemini ended the turn with ${reason}${words}`);
}

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
    // "flagged for using an unsupported language": a refusal to answer, told as one.
    case 'LANGUAGE':
      return 'content_filter';
    default:
      return 'other';
  }
}
