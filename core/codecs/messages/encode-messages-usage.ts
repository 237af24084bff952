import type { UnifiedUsage } from '../../unified/unified-response';

/** A type alias, not an interface, so that it fits `MessagesUsage`'s index signature. */
export type EncodedMessagesUsage = {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
  output_tokens_details?: { thinking_tokens: number };
};

/** Unified usage → Messages usage: `input_tokens` excludes cache reads and writes, as Anthropic counts it. */
export function encodeMessagesUsage(usage: Partial<UnifiedUsage>): EncodedMessagesUsage {
  const cacheRead = usage.cachedInputTokens ?? 0;
  const cacheCreation = usage.cacheCreationInputTokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage.inputTokens ?? 0) - cacheRead - cacheCreation),
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: cacheRead,
    output_tokens: usage.outputTokens ?? 0,
    ...(usage.reasoningTokens !== undefined ? { output_tokens_details: { thinking_tokens: usage.reasoningTokens } } : {}),
  };
}
