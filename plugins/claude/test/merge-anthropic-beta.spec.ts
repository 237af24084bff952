import { expect } from 'chai';
import { mergeAnthropicBeta, OAUTH_BETA } from '../src/merge-anthropic-beta';

describe('mergeAnthropicBeta', () => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'oauth-2025-04-20'],
    ['', 'oauth-2025-04-20'],
    ['interleaved-thinking-2025-05-14', 'interleaved-thinking-2025-05-14,oauth-2025-04-20'],
    ['a, b ,c', 'a,b,c,oauth-2025-04-20'],
    ['a,oauth-2025-04-20, b', 'a,oauth-2025-04-20, b'],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${expected}`, () => {
      expect(mergeAnthropicBeta(input, OAUTH_BETA)).to.equal(expected);
    });
  }
});
