import { expect } from 'chai';
import { encodeThinkingConfig } from '../../../../core/codecs/gemini/encode-thinking-config';
import type { UnifiedReasoningConfig } from '../../../../core/unified/unified-request';

describe('encodeThinkingConfig', () => {
  const cases: Array<[string, UnifiedReasoningConfig | undefined, string, Record<string, unknown> | undefined]> = [
    ['nothing asked', undefined, 'gemini-3-flash-preview', undefined],
    ['an explicit budget, Gemini 3', { budgetTokens: 4096, effort: 'high' }, 'gemini-3-pro-preview', { thinkingBudget: 4096 }],
    ['an explicit budget, Gemini 2.5', { budgetTokens: 1024, includeThoughts: true }, 'gemini-2.5-flash', { includeThoughts: true, thinkingBudget: 1024 }],
    ['effort low → level low on Gemini 3', { effort: 'low' }, 'gemini-3-flash-preview', { thinkingLevel: 'low' }],
    ['effort minimal → level low on Gemini 3 Pro', { effort: 'minimal' }, 'gemini-3-pro-preview', { thinkingLevel: 'low' }],
    ['effort medium → level high on Gemini 3 Pro', { effort: 'medium' }, 'gemini-3-pro-preview', { thinkingLevel: 'high' }],
    ['effort minimal → level minimal on Gemini 3 Flash', { effort: 'minimal' }, 'gemini-3-flash-preview', { thinkingLevel: 'minimal' }],
    ['effort medium → level medium on Gemini 3 Flash', { effort: 'medium' }, 'gemini-3-flash-preview', { thinkingLevel: 'medium' }],
    ['thinking off on Gemini 3 Flash → level minimal', { enabled: false }, 'gemini-3-flash-preview', { thinkingLevel: 'minimal' }],
    ['nothing on gemini-2.0-flash, which has no thinking', { effort: 'high', includeThoughts: true }, 'gemini-2.0-flash', undefined],
    ['nothing on gemini-1.5-pro', { budgetTokens: 1024 }, 'models/gemini-1.5-pro', undefined],
    ['nothing on 2.5 Flash Image', { includeThoughts: true }, 'gemini-2.5-flash-image', undefined],
    ['nothing on Gemma', { effort: 'low' }, 'gemma-3-27b-it', undefined],
    ['the 2.0 thinking experiment keeps its config', { includeThoughts: true }, 'gemini-2.0-flash-thinking-exp-01-21', { includeThoughts: true }],
    ['effort xhigh → level high on an alias', { effort: 'xhigh' }, 'gemini-flash-latest', { thinkingLevel: 'high' }],
    ['effort medium → budget 8192 on Gemini 2.5', { effort: 'medium' }, 'gemini-2.5-flash', { thinkingBudget: 8192 }],
    ['effort max → budget 32768 on Gemini 2.5', { effort: 'max' }, 'models/gemini-2.5-pro', { thinkingBudget: 32768 }],
    ['thinking off on 2.5 Flash → budget 0', { enabled: false }, 'gemini-2.5-flash', { thinkingBudget: 0 }],
    ['thinking off with thoughts asked for (Codex effort none + summary) → no includeThoughts', { enabled: false, includeThoughts: true }, 'gemini-2.5-flash', { thinkingBudget: 0 }],
    ['thinking off on 2.5 Pro → its floor, 128', { enabled: false }, 'gemini-2.5-pro', { thinkingBudget: 128 }],
    ['thinking off on Gemini 3 → level low (it cannot be switched off)', { enabled: false, includeThoughts: false }, 'gemini-3-pro-preview', { includeThoughts: false, thinkingLevel: 'low' }],
    ['only includeThoughts', { enabled: true, includeThoughts: true }, 'gemini-3-pro-preview', { includeThoughts: true }],
    ["Claude Code's ultrathink budget on 2.5 Flash → its most, 24576", { budgetTokens: 31999 }, 'gemini-2.5-flash', { thinkingBudget: 24576 }],
    ['effort xhigh on 2.5 Flash-Lite → 24576', { effort: 'xhigh' }, 'gemini-2.5-flash-lite', { thinkingBudget: 24576 }],
    ['a budget above 2.5 Pro\'s range → 32768', { budgetTokens: 50000 }, 'gemini-2.5-pro', { thinkingBudget: 32768 }],
    ['a budget below Flash-Lite\'s floor → 512', { budgetTokens: 100 }, 'gemini-2.5-flash-lite', { thinkingBudget: 512 }],
    ['dynamic (-1) as given', { budgetTokens: -1 }, 'gemini-2.5-flash', { thinkingBudget: -1 }],
  ];
  for (const [what, reasoning, model, expected] of cases) {
    it(what, () => {
      const out = encodeThinkingConfig(reasoning, model);
      expect(out).to.deep.equal(expected);
      if (out) expect(out.thinkingBudget !== undefined && out.thinkingLevel !== undefined, 'never both').to.equal(false);
    });
  }
});
