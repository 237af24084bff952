import type { UnifiedUsage } from '../../unified/unified-response';

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Responses `usage` → unified: `input_tokens` includes cached, `output_tokens` includes reasoning (fixtures README). */
export function decodeResponsesUsage(usage: unknown): UnifiedUsage {
  const inputTokens = count(field(usage, 'input_tokens')) ?? 0;
  const outputTokens = count(field(usage, 'output_tokens')) ?? 0;
  const out: UnifiedUsage = { inputTokens, outputTokens, totalTokens: count(field(usage, 'total_tokens')) ?? inputTokens + outputTokens };
  const cached = count(field(field(usage, 'input_tokens_details'), 'cached_tokens'));
  if (cached !== undefined) out.cachedInputTokens = cached;
  const cacheWrite = count(field(field(usage, 'input_tokens_details'), 'cache_write_tokens'));
  if (cacheWrite) out.cacheCreationInputTokens = cacheWrite;
  const reasoning = count(field(field(usage, 'output_tokens_details'), 'reasoning_tokens'));
  if (reasoning !== undefined) out.reasoningTokens = reasoning;
  return out;
}
