import type { FinishReason } from '../../unified/unified-response';
import type { MessagesStopReason } from './messages-types';

/**
 * Unified finish reason → Messages `stop_reason`; a known stop sequence makes it `stop_sequence`. `refused`: the answer's
 * text is the model declining (chat's `refusal`), which Anthropic reports as `refusal`, not as a turn that ended.
 */
export function encodeMessagesStopReason(reason: FinishReason, stopSequence?: string, refused = false): MessagesStopReason {
  if (refused && reason === 'stop') return 'refusal';
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    case 'stop':
      return stopSequence ? 'stop_sequence' : 'end_turn';
    default:
      return 'end_turn';
  }
}
