import type { UnifiedUsage } from '../../unified/unified-response';
import type { MessagesUsage } from './messages-types';

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Messages usage → unified usage. Anthropic `input_tokens` excludes the cache, so the unified input is
 * input + cache reads + cache writes; cached = cache reads. `output_tokens` already includes thinking.
 */
export function decodeMessagesUsage(usage: MessagesUsage | null | undefined): UnifiedUsage {
  const input = count(usage?.input_tokens) ?? 0;
  const cacheRead = count(usage?.cache_read_input_tokens);
  const cacheCreation = count(usage?.cache_creation_input_tokens);
  const output = count(usage?.output_tokens) ?? 0;
  const thinking = count(usage?.output_tokens_details?.thinking_tokens);
  const inputTokens = input + (cacheRead ?? 0) + (cacheCreation ?? 0);
  return {
    inputTokens,
    outputTokens: output,
    totalTokens: inputTokens + output,
    ...(cacheRead !== undefined ? { cachedInputTokens: cacheRead } : {}),
    ...(cacheCreation !== undefined ? { cacheCreationInputTokens: cacheCreation } : {}),
    ...(thinking !== undefined ? { reasoningTokens: thinking } : {}),
  };
}
