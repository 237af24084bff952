import type { UnifiedUsage } from '../../unified/unified-response';
import type { GeminiUsageMetadata } from './gemini-types';

/**
 * `usageMetadata` → unified usage. Gemini's `candidatesTokenCount` excludes thoughts, so output is
 * candidates + thoughts. Input is `promptTokenCount` (cached tokens included); tool-use prompt tokens
 * (code execution results) count only in the total, which is Gemini's own `totalTokenCount`.
 */
export function decodeGeminiUsage(usage: GeminiUsageMetadata | undefined): UnifiedUsage {
  const inputTokens = usage?.promptTokenCount ?? 0;
  const thoughts = usage?.thoughtsTokenCount ?? 0;
  const outputTokens = (usage?.candidatesTokenCount ?? 0) + thoughts;
  const toolUse = usage?.toolUsePromptTokenCount ?? 0;
  const out: UnifiedUsage = { inputTokens, outputTokens, totalTokens: usage?.totalTokenCount ?? inputTokens + toolUse + outputTokens };
  if (usage?.cachedContentTokenCount !== undefined) out.cachedInputTokens = usage.cachedContentTokenCount;
  if (usage?.thoughtsTokenCount !== undefined) out.reasoningTokens = thoughts;
  return out;
}
