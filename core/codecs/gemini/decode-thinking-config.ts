import type { ReasoningEffort, UnifiedReasoningConfig } from '../../unified/unified-request';
import type { GeminiThinkingConfig } from './gemini-types';

const EFFORT_BY_LEVEL: Readonly<Record<string, ReasoningEffort>> = {
  minimal: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
};

/**
 * `thinkingConfig` → unified reasoning. `thinkingBudget` 0 switches thinking off, -1 means dynamic
 * (on, no budget); `thinkingLevel` is read case-insensitively (docs `low`, SDK `LOW`).
 */
export function decodeThinkingConfig(config: GeminiThinkingConfig | undefined): UnifiedReasoningConfig | undefined {
  if (!config) return undefined;
  const out: UnifiedReasoningConfig = {};
  const { thinkingBudget, thinkingLevel, includeThoughts } = config;
  if (thinkingBudget !== undefined) {
    out.enabled = thinkingBudget !== 0;
    if (thinkingBudget > 0) out.budgetTokens = thinkingBudget;
  }
  const effort = thinkingLevel === undefined ? undefined : EFFORT_BY_LEVEL[thinkingLevel.toLowerCase()];
  if (effort) {
    out.enabled = true;
    out.effort = effort;
  }
  if (includeThoughts !== undefined) out.includeThoughts = includeThoughts;
  return Object.keys(out).length > 0 ? out : undefined;
}
