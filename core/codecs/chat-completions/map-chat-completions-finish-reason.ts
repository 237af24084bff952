import { GatewayError } from '../../errors/gateway-error';
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

/**
 * Finish reasons that say the upstream broke the answer off rather than ended it: DeepSeek's
 * `insufficient_system_resource`, vLLM's `abort`, and `error` (TGI and proxies). Told as an end, an answer cut inside
 * a tool call's arguments reads as a finished call (the SDKs parse what arrived: an agent runs it with fields
 * missing); as an upstream error, the SDKs retry.
 */
const INTERRUPTED = new Set(['insufficient_system_resource', 'abort', 'error']);

/** The error an interrupted answer's finish reason stands for; undefined for an ended one. */
export function chatAnswerInterruption(reason: string | undefined): GatewayError | undefined {
  if (reason === undefined || !INTERRUPTED.has(reason)) return undefined;
  return new GatewayError('GW_UPSTREAM_ERROR', `upstream broke the answer off (finish_reason ${reason})`);
}
