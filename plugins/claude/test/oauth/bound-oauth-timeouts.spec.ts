import { expect } from 'chai';
import { boundOAuthTimeouts } from '../../src/oauth/bound-oauth-timeouts';

describe('boundOAuthTimeouts', () => {
  const cases = [
    { name: 'the platform defaults', platform: { connectMs: 10_000, totalMs: 600_000, idleMs: 120_000 }, expected: { connectMs: 10_000, totalMs: 15_000, idleMs: 15_000 } },
    { name: 'shorter platform timeouts', platform: { connectMs: 2_000, totalMs: 3_000, idleMs: 1_000 }, expected: { connectMs: 2_000, totalMs: 3_000, idleMs: 1_000 } },
    { name: 'a longer connect timeout', platform: { connectMs: 60_000, totalMs: 600_000, idleMs: 120_000 }, expected: { connectMs: 10_000, totalMs: 15_000, idleMs: 15_000 } },
    { name: 'disabled platform timeouts (0)', platform: { connectMs: 0, totalMs: 0, idleMs: 0 }, expected: { connectMs: 10_000, totalMs: 15_000, idleMs: 15_000 } },
    { name: 'timeouts beyond the timer range', platform: { connectMs: 2 ** 31, totalMs: 2 ** 40, idleMs: 2 ** 31 }, expected: { connectMs: 10_000, totalMs: 15_000, idleMs: 15_000 } },
  ];
  for (const { name, platform, expected } of cases) {
    it(`caps ${name}`, () => {
      expect(boundOAuthTimeouts(platform)).to.deep.equal(expected);
    });
  }
});
