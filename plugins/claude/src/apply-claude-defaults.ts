import { takesAdaptiveThinking, type UnifiedReasoningConfig, type UnifiedRequest } from '@gateway/core';

/** A model id ending in this turns extended thinking on (`claude-sonnet-4-5-thinking`). */
export const THINKING_SUFFIX = '-thinking';

export interface ClaudeDefaults {
  defaultMaxTokens: number;
  defaultBudgetTokens: number;
}

/** The client chose how to think (effort, budget, or on/off): its choice wins over a model suffix. */
function hasOwnReasoning(reasoning: UnifiedReasoningConfig | undefined): boolean {
  return reasoning !== undefined && (reasoning.enabled !== undefined || reasoning.effort !== undefined || reasoning.budgetTokens !== undefined);
}

/** The API's least thinking budget; `max_tokens` must exceed the budget. */
const MIN_BUDGET_TOKENS = 1024;

/**
 * The budget a `-thinking` model thinks with: the default, unless the client's own output cap is not above it; then
 * half that cap (the cap is the client's setting and wins over the suffix's default budget). Undefined when the cap
 * leaves no room for the least budget and an answer: no thinking then.
 */
function suffixBudget(maxTokens: number | undefined, defaultBudget: number): number | undefined {
  if (maxTokens === undefined || maxTokens > defaultBudget) return defaultBudget;
  return maxTokens >= 2 * MIN_BUDGET_TOKENS ? Math.floor(maxTokens / 2) : undefined;
}

/**
 * Thinking asked for without saying how much (Gemini `includeThoughts`, `enabled` alone). Adaptive thinking on a
 * model that takes it says how much: as much as the model chooses (the codec sends it so).
 */
function lacksBudget(reasoning: UnifiedReasoningConfig | undefined, model: string): boolean {
  return (
    reasoning !== undefined &&
    reasoning.enabled !== false &&
    reasoning.budgetTokens === undefined &&
    reasoning.effort === undefined &&
    !(reasoning.adaptive === true && takesAdaptiveThinking(model)) &&
    (reasoning.enabled === true || reasoning.includeThoughts === true)
  );
}

/**
 * Thoughts asked to be shown, thinking itself not asked for: Responses `reasoning.summary` alone (Codex sends it on
 * every call), Gemini `includeThoughts` alone. A weaker wish than the client's own output cap or temperature,
 * which thinking would override (max_tokens raised above the budget, temperature dropped).
 */
function yieldsToClientSettings(request: UnifiedRequest, defaults: ClaudeDefaults): boolean {
  if (!wantsOnlyToSeeThoughts(request.reasoning)) return false;
  const capped = request.maxTokens !== undefined && request.maxTokens <= defaults.defaultBudgetTokens;
  return capped || request.temperature !== undefined || request.topK !== undefined;
}

/** Thoughts asked to be shown and nothing else said about thinking. */
function wantsOnlyToSeeThoughts(reasoning: UnifiedReasoningConfig | undefined): boolean {
  return reasoning?.includeThoughts === true && reasoning.enabled === undefined && reasoning.budgetTokens === undefined && reasoning.effort === undefined;
}

/**
 * The Claude platform's defaults on a translated request (spec 8, DECISIONS §7): `max_tokens` 32000 when the
 * client set none; a `-thinking` suffix is stripped and enables thinking with the default budget unless the client
 * chose its own reasoning settings (a budget that fits under the client's own `max_tokens`: see suffixBudget; a
 * client temperature is still dropped, thinking being the model the client picked); thinking asked for without a budget gets the default budget, except a wish to
 * see thoughts that the client's own output cap or temperature contradicts (see yieldsToClientSettings). The
 * messages codec then keeps `max_tokens` above the budget.
 */
export function applyClaudeDefaults(request: UnifiedRequest, defaults: ClaudeDefaults): UnifiedRequest {
  const thinkingModel = request.model.endsWith(THINKING_SUFFIX) && request.model.length > THINKING_SUFFIX.length;
  const model = thinkingModel ? request.model.slice(0, -THINKING_SUFFIX.length) : request.model;
  let reasoning = request.reasoning;
  if (thinkingModel && !hasOwnReasoning(reasoning)) {
    const budget = suffixBudget(request.maxTokens, defaults.defaultBudgetTokens);
    if (budget !== undefined) reasoning = { ...reasoning, enabled: true, budgetTokens: budget };
    // No thinking fits under the client's own cap: a wish to see thoughts (Codex's reasoning.summary) yields with it,
    // or the codec would turn it into thinking of its own and raise the cap.
    else if (wantsOnlyToSeeThoughts(reasoning)) reasoning = undefined;
  } else if (yieldsToClientSettings(request, defaults)) {
    reasoning = undefined;
  } else if (lacksBudget(reasoning, model)) {
    reasoning = { ...reasoning, budgetTokens: defaults.defaultBudgetTokens };
  }
  // Assigned, not spread: a spread copy gaining keys (maxTokens, reasoning) gets a hidden class of its own each
  // time on Node 20, and so does Object.assign given an empty `{}` among its sources.
  const out: UnifiedRequest = Object.assign({}, request, { model, maxTokens: request.maxTokens ?? defaults.defaultMaxTokens });
  // The copy already holds the request's own; undefined when thinking yields to the client's settings.
  if (reasoning !== request.reasoning) out.reasoning = reasoning;
  return out;
}
