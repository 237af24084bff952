import type { UnifiedUsage } from '../../unified/unified-response';

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * Chat `usage` → unified. `prompt_tokens` already includes cached tokens and `completion_tokens`
 * includes reasoning tokens (fixtures README, usage table), so they map one to one.
 */
export function decodeChatCompletionsUsage(usage: unknown): UnifiedUsage {
  const inputTokens = count(field(usage, 'prompt_tokens')) ?? 0;
  const outputTokens = count(field(usage, 'completion_tokens')) ?? 0;
  const out: UnifiedUsage = {
    inputTokens,
    outputTokens,
    totalTokens: count(field(usage, 'total_tokens')) ?? inputTokens + outputTokens,
  };
  const cached = count(field(field(usage, 'prompt_tokens_details'), 'cached_tokens'));
  if (cached !== undefined) out.cachedInputTokens = cached;
  const reasoning = count(field(field(usage, 'completion_tokens_details'), 'reasoning_tokens'));
  if (reasoning !== undefined) out.reasoningTokens = reasoning;
  return out;
}
