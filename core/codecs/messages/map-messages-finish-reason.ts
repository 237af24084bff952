import type { FinishReason } from '../../unified/unified-response';

/** Messages `stop_reason` → unified finish reason. @see Anthropic Messages API reference, `stop_reason`. */
export function mapMessagesFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}
