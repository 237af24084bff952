import type { FinishReason } from '../../unified/unified-response';
import type { MessagesStopReason } from './messages-types';

/** Unified finish reason → Messages `stop_reason`; a known stop sequence makes it `stop_sequence`. */
export function encodeMessagesStopReason(reason: FinishReason, stopSequence?: string): MessagesStopReason {
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
