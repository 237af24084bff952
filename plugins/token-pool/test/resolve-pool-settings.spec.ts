import { expect } from 'chai';
import { resolvePoolSettings } from '../src/resolve-pool-settings';

describe('token-pool resolvePoolSettings', () => {
  it('applies the documented defaults', () => {
    const settings = resolvePoolSettings('pool', { rotation: 2, tokens: [{ token: 'tok-000000001' }, { token: 'tok-000000002', tier: 'premium' }] });
    expect(settings).to.include({ rotation: 2, maxAttempts: 3, cooldownMs: 3_600_000 });
    expect(settings.thinking).to.deep.equal({ reasoning_effort: 'high' });
    expect(settings.tokens).to.deep.equal([{ token: 'tok-000000001', tier: 'basic' }, { token: 'tok-000000002', tier: 'premium' }]);
    expect(settings.patterns.limit.length).to.be.greaterThan(3);
    expect(settings.patterns.anomaly.length).to.be.greaterThan(3);
  });

  it('names the field of an invalid pattern', () => {
    expect(() => resolvePoolSettings('mypool', { rotation: 1, tokens: [], anomalyPatterns: ['ok', '*bad'] })).to.throw(/^platforms\.mypool\.anomalyPatterns\[1\]: invalid regular expression/);
  });

  it('refuses the same token twice', () => {
    expect(() => resolvePoolSettings('pool', { rotation: 1, tokens: [{ token: 'tok-000000001' }, { token: 'tok-000000001', tier: 'premium' }] }))
      .to.throw('platforms.pool.tokens[1]: the same token as tokens[0]');
  });
});
