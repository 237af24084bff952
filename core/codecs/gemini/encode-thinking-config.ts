import type { ReasoningEffort, UnifiedReasoningConfig } from '../../unified/unified-request';
import type { GeminiThinkingConfig } from './gemini-types';
import { isPreGemini3Model } from './is-pre-gemini3-model';
import { budgetForEffort } from '../shared/reasoning-effort-budget';

type ThinkingLevel = 'minimal' | 'low' | 'medium' | 'high';

/** Gemini 3 levels that every Gemini 3 model takes (Pro has no `minimal`/`medium`). */
const LEVEL_BY_EFFORT: Readonly<Record<ReasoningEffort, ThinkingLevel>> = {
  minimal: 'low',
  low: 'low',
  medium: 'high',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

/** Gemini 3 Flash models take all four levels. */
const FLASH_LEVEL_BY_EFFORT: Readonly<Record<ReasoningEffort, ThinkingLevel>> = {
  ...LEVEL_BY_EFFORT,
  minimal: 'minimal',
  medium: 'medium',
};

/**
 * Models with no thinking at all (1.x, 2.0 but its thinking experiment, 2.5 Flash Image, Gemma): any `thinkingConfig`
 * is a 400 "Thinking is not enabled" there.
 */
const THINKLESS_MODEL = /^(?:models\/)?(?:gemini-(?:1(?:\.\d+)?|2\.0)-(?!.*thinking)|gemini-2\.5-flash-image|gemma-)/;

/**
 * Unified reasoning → `thinkingConfig`, never with both `thinkingLevel` and `thinkingBudget` (a 400):
 * - an explicit `budgetTokens` is sent as `thinkingBudget` (Gemini 3 still accepts budgets);
 * - else an `effort` is a `thinkingLevel` on Gemini 3 (`low`|`high`; Flash also `minimal`|`medium`), a budget from the
 *   shared table on 2.x;
 * - `enabled: false` is budget 0 on 2.x (128, the floor, on 2.5 Pro, which cannot stop thinking)
 *   and the lowest level on Gemini 3, which cannot switch thinking off;
 * - models without thinking (1.x, 2.0, 2.5 Flash Image, Gemma) get none.
 */
export function encodeThinkingConfig(reasoning: UnifiedReasoningConfig | undefined, model: string): GeminiThinkingConfig | undefined {
  if (!reasoning || THINKLESS_MODEL.test(model)) return undefined;
  const legacy = isPreGemini3Model(model);
  const levels = /flash/.test(model) ? FLASH_LEVEL_BY_EFFORT : LEVEL_BY_EFFORT;
  const out: GeminiThinkingConfig = {};
  // Thoughts asked to be shown with thinking off (Codex's effort `none` beside its summary wish) are none to show:
  // "include_thoughts is only enabled when thinking is enabled".
  if (reasoning.includeThoughts !== undefined && !(reasoning.includeThoughts && reasoning.enabled === false)) out.includeThoughts = reasoning.includeThoughts;
  if (reasoning.enabled === false) {
    if (legacy) out.thinkingBudget = /gemini-2\.5-pro/.test(model) ? 128 : 0;
    else out.thinkingLevel = levels.minimal;
  } else if (reasoning.budgetTokens !== undefined) {
    out.thinkingBudget = fitThinkingBudget(reasoning.budgetTokens, model);
  } else if (reasoning.effort !== undefined) {
    if (legacy) out.thinkingBudget = fitThinkingBudget(budgetForEffort(reasoning.effort), model);
    else out.thinkingLevel = levels[reasoning.effort];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A budget within the 2.5 model's documented range, which the API enforces with a 400 ("The thinking budget (N) is
 * invalid"): Pro 128–32768, Flash 0–24576, Flash-Lite 0 or 512–24576. A client's budget from another API (Claude
 * Code's 31999) or the shared table's `xhigh` would otherwise fail. -1 (dynamic) and other models' budgets go as given.
 */
export function fitThinkingBudget(budget: number, model: string): number {
  if (budget < 0 || !/gemini-2\.5-/.test(model)) return budget;
  if (/gemini-2\.5-pro/.test(model)) return clamp(budget, 128, 32_768);
  if (/flash-lite/.test(model)) return budget === 0 ? 0 : clamp(budget, 512, 24_576);
  return clamp(budget, 0, 24_576);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
