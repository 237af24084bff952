import { expect } from 'chai';
import { budgetForEffort, effortForBudget, toOpenAiEffort } from '../../../../core/codecs/shared/reasoning-effort-budget';

describe('reasoning effort ↔ budget', () => {
  it('maps efforts to budgets and back to the smallest covering effort', () => {
    expect(budgetForEffort('minimal')).to.equal(1024);
    expect(budgetForEffort('high')).to.equal(16384);
    const cases: Array<[number, string]> = [[500, 'minimal'], [1024, 'minimal'], [1500, 'low'], [8192, 'medium'], [16000, 'high'], [64000, 'high']];
    for (const [budget, effort] of cases) expect(effortForBudget(budget), String(budget)).to.equal(effort);
  });

  it("spells the unified max as OpenAI's xhigh", () => {
    expect(toOpenAiEffort('max')).to.equal('xhigh');
    expect(toOpenAiEffort('low')).to.equal('low');
  });
});
