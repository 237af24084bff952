import { expect } from 'chai';
import { decodeThinkingConfig } from '../../../../core/codecs/gemini/decode-thinking-config';
import type { GeminiThinkingConfig } from '../../../../core/codecs/gemini/gemini-types';
import type { UnifiedReasoningConfig } from '../../../../core/unified/unified-request';

describe('decodeThinkingConfig', () => {
  const cases: Array<[GeminiThinkingConfig | undefined, UnifiedReasoningConfig | undefined]> = [
    [undefined, undefined],
    [{}, undefined],
    [{ thinkingBudget: 0 }, { enabled: false }],
    [{ thinkingBudget: -1 }, { enabled: true }],
    [{ thinkingBudget: 2048, includeThoughts: true }, { enabled: true, budgetTokens: 2048, includeThoughts: true }],
    [{ thinkingLevel: 'low' }, { enabled: true, effort: 'low' }],
    [{ thinkingLevel: 'HIGH' }, { enabled: true, effort: 'high' }],
    [{ thinkingLevel: 'MINIMAL' }, { enabled: true, effort: 'minimal' }],
    [{ thinkingLevel: 'THINKING_LEVEL_UNSPECIFIED', includeThoughts: false }, { includeThoughts: false }],
  ];
  for (const [config, expected] of cases) {
    it(`${JSON.stringify(config)} → ${JSON.stringify(expected)}`, () => {
      expect(decodeThinkingConfig(config)).to.deep.equal(expected);
    });
  }
});
