import type { UnifiedRequest } from '../../unified/unified-request';
import type { MessagesExtensions, MessagesThinkingConfig } from './messages-types';
import { budgetForEffort, effortForBudget } from '../shared/reasoning-effort-budget';
import { claudeOutputLimit } from './claude-output-limit';
import { isAdaptiveOnlyClaude } from './is-adaptive-only-claude';
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
  /** The conversation ends with the assistant's text (a prefill): the API does not take one with thinking. */
  prefill: boolean;
}

/**
 * Unified reasoning settings → `thinking`, `output_config.effort` and a `max_tokens` that fits them.
 * Other formats' settings become `{type: "enabled", budget_tokens}` on models before 4.6; there an effort (or
 * adaptive thinking) without a budget is `{type: "adaptive"}` with `output_config.effort` (see takesAdaptiveThinking).
 * A Messages client's own `adaptive` and effort go as asked. The budget is at least 1024 and `max_tokens` is raised
 * above it, keeping the requested room for the answer.
 * Forced tool use cannot be combined with thinking, nor can a prefill: thinking is then left out with a warning. So is
 * thinking another format's client asked for while its last tool-use turn has no thinking to send back
 * (a Messages client's own `thinking` is sent as asked: its turns carry their signed blocks).
 * On adaptive-only models (isAdaptiveOnlyClaude) a budget becomes adaptive thinking at the effort it stands for, and
 * thoughts a client wants to see are asked for (`display: "summarized"`); elsewhere `xhigh` becomes `max`.
 */
export function encodeMessagesThinking(
  request: UnifiedRequest,
  ext: MessagesExtensions,
  blockers: ThinkingBlockers,
  warnings: string[],
): EncodedMessagesThinking {
  const encoded = encodeThinking(request, ext, blockers, warnings);
  if (isAdaptiveOnlyClaude(request.model)) {
    // Thinking text is left out on these models unless asked for: a client that wants to see thoughts gets them.
    const thinking = encoded.thinking;
    if (thinking?.type !== 'adaptive' || thinking.display !== undefined || !wantsThoughts(request)) return encoded;
    return { ...encoded, thinking: { ...thinking, display: 'summarized' } };
  }
  // `xhigh` is an effort of Opus 4.7 and later; the models before take `max` as their highest.
  return encoded.effort === 'xhigh' ? { ...encoded, effort: 'max' } : encoded;
}

/** Thinking asked for outright, or its thoughts asked to be shown (Responses `reasoning.summary`, Gemini `includeThoughts`). */
function wantsThoughts(request: UnifiedRequest): boolean {
  return request.reasoning?.includeThoughts === true || request.reasoning?.enabled === true;
}

/** The effort an adaptive-only model thinks at for a budget (see budgetForEffort); `minimal` is below its lowest. */
function effortForAdaptiveOnly(request: UnifiedRequest, budget: number): string {
  const effort = request.reasoning?.effort ?? effortForBudget(budget);
  return effort === 'minimal' ? 'low' : effort;
}

function encodeThinking(request: UnifiedRequest, ext: MessagesExtensions, blockers: ThinkingBlockers, warnings: string[]): EncodedMessagesThinking {
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
    return { maxTokens, ...effortField };
  }
  if (blockers.prefill) {
    warnings.push('thinking: left out because the conversation ends with an assistant message (a prefill), which the API does not allow with thinking');
    return { maxTokens, ...effortField };
  }
  if (blockers.unsignedToolTurn && rawThinking === undefined) {
    warnings.push('thinking: left out because the last assistant tool-use turn has no signed thinking to send back, which the API requires with thinking on');
    return { maxTokens, ...effortField };
  }
  if (reasoning.budgetTokens === undefined && (rawThinking?.type === 'adaptive' || rawThinking?.type === 'between_tools')) {
    return { thinking: rawThinking, maxTokens, ...effortField };
  }
  if (reasoning.budgetTokens === undefined && adaptive) return { thinking: { type: 'adaptive' }, maxTokens, ...effortField };
  if (isAdaptiveOnlyClaude(request.model)) {
    // A budget is a 400 there: the model thinks adaptively at the effort the budget stands for, max_tokens as asked.
    const budget = reasoning.budgetTokens ?? (typeof rawThinking?.budget_tokens === 'number' ? rawThinking.budget_tokens : budgetForEffort('high'));
    const adaptiveEffort = effortForAdaptiveOnly(request, budget);
    warnings.push(`thinking: ${request.model} thinks adaptively only; budget_tokens ${budget} sent as effort ${adaptiveEffort}`);
    return { thinking: { type: 'adaptive' }, maxTokens, effort: adaptiveEffort };
  }

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

