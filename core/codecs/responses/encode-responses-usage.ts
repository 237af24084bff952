import type { UnifiedUsage } from '../../unified/unified-response';
import type { ResponsesUsage } from './responses-types';

/**
 * Unified → Responses `usage` with both detail objects (OAS `ResponseUsage` requires them), cache writes (Claude's
 * `cache_creation_input_tokens`) in `cache_write_tokens` as the fixtures have it.
 */
export function encodeResponsesUsage(usage: Partial<UnifiedUsage>): ResponsesUsage {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0, cache_write_tokens: usage.cacheCreationInputTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens ?? input + output,
  };
}
