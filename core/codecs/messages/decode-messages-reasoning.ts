import type { ReasoningEffort, UnifiedReasoningConfig } from '../../unified/unified-request';
import type { MessagesOutputConfig, MessagesThinkingConfig } from './messages-types';

const EFFORTS: ReadonlySet<string> = new Set<ReasoningEffort>(['low', 'medium', 'high', 'xhigh', 'max']);

/**
 * `thinking` (`enabled` + budget, `adaptive`, `between_tools`, `disabled`) and `output_config.effort`
 * → unified reasoning settings. `display: "omitted"` means the client does not want thought text back.
 */
export function decodeMessagesReasoning(
  thinking: MessagesThinkingConfig | undefined,
  outputConfig: MessagesOutputConfig | undefined,
): UnifiedReasoningConfig | undefined {
  const effort = outputConfig?.effort;
  const reasoning: UnifiedReasoningConfig = typeof effort === 'string' && EFFORTS.has(effort) ? { effort: effort as ReasoningEffort } : {};
  if (thinking?.type === 'disabled') {
    reasoning.enabled = false;
  } else if (thinking) {
    reasoning.enabled = true;
    if (thinking.type === 'enabled' && typeof thinking.budget_tokens === 'number') reasoning.budgetTokens = thinking.budget_tokens;
    reasoning.includeThoughts = thinking.display !== 'omitted';
  }
  return Object.keys(reasoning).length > 0 ? reasoning : undefined;
}
