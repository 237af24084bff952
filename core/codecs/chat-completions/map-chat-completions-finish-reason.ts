import type { FinishReason } from '../../unified/unified-response';
import type { ChatCompletionsFinishReason } from './chat-completions-types';

/** @see OAS `CreateChatCompletionResponse.choices[].finish_reason` (`function_call` is the legacy spelling). */
export function mapChatCompletionsFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    // No reason at all (some compatible services answer `null`) is the end a stream without one has; `eos` is TGI's
    // and vLLM's word for it.
    case null:
    case undefined:
    case 'eos':
    case 'eos_token':
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

/** Unified → wire; chat has no "other", and clients treat `stop` as the neutral end. */
export function encodeChatCompletionsFinishReason(reason: FinishReason): ChatCompletionsFinishReason {
  return reason === 'other' ? 'stop' : reason;
}
