import type { UnifiedUsage } from '../../unified/unified-response';
import type { GeminiUsageMetadata } from './gemini-types';

/** Unified usage → `usageMetadata`: `candidatesTokenCount` excludes reasoning, which goes to `thoughtsTokenCount`. */
export function encodeGeminiUsage(usage: Partial<UnifiedUsage>): GeminiUsageMetadata {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const reasoning = Math.min(usage.reasoningTokens ?? 0, output);
  const out: GeminiUsageMetadata = {
    promptTokenCount: input,
    candidatesTokenCount: output - reasoning,
    totalTokenCount: usage.totalTokens ?? input + output,
  };
  if (usage.cachedInputTokens) out.cachedContentTokenCount = usage.cachedInputTokens;
  if (reasoning > 0) out.thoughtsTokenCount = reasoning;
  return out;
}
