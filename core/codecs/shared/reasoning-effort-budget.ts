import type { ReasoningEffort } from '../../unified/unified-request';

/** The one effort ↔ thinking-budget table every codec uses, so a setting means the same on every upstream. */
const BUDGET_BY_EFFORT: Readonly<Record<ReasoningEffort, number>> = Object.freeze({
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
  max: 32768,
});

export function budgetForEffort(effort: ReasoningEffort): number {
  return BUDGET_BY_EFFORT[effort];
}

/** The smallest effort whose budget covers `budget` tokens (OpenAI efforts stop at `high`). */
export function effortForBudget(budget: number): ReasoningEffort {
  if (budget <= BUDGET_BY_EFFORT.minimal) return 'minimal';
  if (budget <= BUDGET_BY_EFFORT.low) return 'low';
  if (budget <= BUDGET_BY_EFFORT.medium) return 'medium';
  return 'high';
}

/** OpenAI's `reasoning_effort` / `reasoning.effort`: the unified `max` is OpenAI's `xhigh`. */
export function toOpenAiEffort(effort: ReasoningEffort): string {
  return effort === 'max' ? 'xhigh' : effort;
}
