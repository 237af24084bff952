import type { UnifiedRequest } from '../../unified/unified-request';
import type { MessagesExtensions, MessagesThinkingConfig } from './messages-types';
import { budgetForEffort } from '../shared/reasoning-effort-budget';
import { claudeOutputLimit } from './claude-output-limit';
import { takesAdaptiveThinking } from './takes-adaptive-thinking';

/** `max_tokens` is required by the API; platforms (the claude plugin) set their own default before encoding. */
export const DEFAULT_MESSAGES_MAX_TOKENS = 4096;

/** The API's floor for `budget_tokens`. */
const MIN_BUDGET_TOKENS = 1024;

export interface EncodedMessagesThinking {
  thinking?: MessagesThinkingConfig;
  /** `output_config.effort`, sent only where the client spoke Messages or asked for adaptive thinking. */
  effort?: string;
  maxTokens: number;
}

/** Conversation facts that keep thinking off whatever the request asks. */
export interface ThinkingBlockers {
  /** tool_choice `any`/`tool`: the API does not allow it with thinking. */
  forcedToolChoice: boolean;
  /** The last assistant turn calls tools without the thinking block the API wants back (see hasUnsignedToolTurn). */
  unsignedToolTurn: boolean;
}

/**
 * Unified reasoning settings → `thinking`, `output_config.effort` and a `max_tokens` that fits them.
 * Other formats' settings become `{type: "enabled", budget_tokens}` on models before 4.6; there an effort (or
 * adaptive thinking) without a budget is `{type: "adaptive"}` with `output_config.effort` (see takesAdaptiveThinking).
 * A Messages client's own `adaptive` and effort go as asked. The budget is at least 1024 and `max_tokens` is raised
 * above it, keeping the requested room for the answer.
 * Forced tool use cannot be combined with thinking: thinking is then left out with a warning. So is
 * thinking another format's client asked for while its last tool-use turn has no thinking to send back
 * (a Messages client's own `thinking` is sent as asked: its turns carry their signed blocks).
 */
export function encodeMessagesThinking(
  request: UnifiedRequest,
  ext: MessagesExtensions,
  blockers: ThinkingBlockers,
  warnings: string[],
): EncodedMessagesThinking {
  const reasoning = request.reasoning;
  const maxTokens = request.maxTokens ?? DEFAULT_MESSAGES_MAX_TOKENS;
  if (!reasoning) return { maxTokens };

  const rawThinking = ext.thinking;
  const clientEffort = ext.output_config?.effort !== undefined && ext.output_config.effort !== null;
  const effort = reasoning.effort === 'minimal' ? 'low' : reasoning.effort;
  // Another format's client asking for thinking without a budget (a chat client's `thinking: {type: "adaptive"}`, an
  // effort) gets adaptive thinking, with the effort, from a model that takes it (the way Anthropic asks 4.6+ to be
  // used; Opus 4.7 refuses budgets); an older model thinks at a budget, as below.
  const adaptive =
    rawThinking?.type === 'adaptive' ||
    (rawThinking === undefined && (reasoning.adaptive === true || reasoning.effort !== undefined) && takesAdaptiveThinking(request.model));
  const effortField = effort !== undefined && (clientEffort || adaptive) ? { effort } : {};

  // A budget of 0 alone means no thinking, as Gemini reads it (`budget_tokens: 0` from a chat client).
  const off = reasoning.enabled === false || (reasoning.enabled === undefined && reasoning.budgetTokens === 0);
  if (off) return { thinking: { type: 'disabled' }, maxTokens, ...effortField };
  // A Messages client's `output_config.effort` without `thinking` tunes effort only; it does not switch thinking on.
  const effortOnly =
    reasoning.enabled === undefined &&
    reasoning.budgetTokens === undefined &&
    reasoning.includeThoughts !== true &&
    (clientEffort || effort === undefined);
  if (effortOnly) return { maxTokens, ...effortField };
  if (blockers.forcedToolChoice) {
    warnings.push('thinking: left out because the API does not allow forced tool use (tool_choice any/tool) with thinking');
    return { maxTokens };
  }
  if (blockers.unsignedToolTurn && rawThinking === undefined) {
    warnings.push('thinking: left out because the last assistant tool-use turn has no signed thinking to send back, which the API requires with thinking on');
    return { maxTokens };
  }
  if (reasoning.budgetTokens === undefined && (rawThinking?.type === 'adaptive' || rawThinking?.type === 'between_tools')) {
    return { thinking: rawThinking, maxTokens, ...effortField };
  }
  if (reasoning.budgetTokens === undefined && adaptive) return { thinking: { type: 'adaptive' }, maxTokens, ...effortField };

  let budget = Math.max(MIN_BUDGET_TOKENS, reasoning.budgetTokens ?? budgetForEffort(reasoning.effort ?? 'medium'));
  let fitted = maxTokens;
  if (request.maxTokens === undefined) {
    fitted = budget + DEFAULT_MESSAGES_MAX_TOKENS;
  } else if (request.maxTokens <= budget) {
    fitted = budget + request.maxTokens;
  }
  // Raised, `max_tokens` stays within what the model takes; the budget then leaves the answer at least the default
  // room (4096, or less when the client asked for less), so a higher effort never thinks less than a lower one.
  const limit = claudeOutputLimit(request.model);
  if (limit !== undefined && fitted > limit && fitted > maxTokens) {
    fitted = Math.max(limit, maxTokens);
    const room = Math.min(request.maxTokens ?? DEFAULT_MESSAGES_MAX_TOKENS, DEFAULT_MESSAGES_MAX_TOKENS);
    if (fitted - budget < room) budget = Math.max(MIN_BUDGET_TOKENS, fitted - room);
  }
  if (request.maxTokens !== undefined && fitted !== request.maxTokens) {
    warnings.push(`max_tokens: raised from ${request.maxTokens} to ${fitted} to exceed thinking budget_tokens ${budget}`);
  }
  const extras = rawThinking?.type === 'enabled' ? rawThinking : {};
  return { thinking: { ...extras, type: 'enabled', budget_tokens: budget }, maxTokens: fitted, ...effortField };
}

