import type { UnifiedUsage } from '../../unified/unified-response';
import type { ChatCompletionsUsage } from './chat-completions-types';

/** Unified → chat `usage`, always with the two detail objects clients read (cached and reasoning tokens). */
export function encodeChatCompletionsUsage(usage: Partial<UnifiedUsage>): ChatCompletionsUsage {
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage.totalTokens ?? prompt + completion,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}
