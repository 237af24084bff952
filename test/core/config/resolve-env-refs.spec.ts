import { expect } from 'chai';
import { resolveEnvRefs } from '../../../core/config/resolve-env-refs';

describe('resolveEnvRefs', () => {
  it('replaces env:NAME at any depth and leaves other strings alone', () => {
    const { value, warnings } = resolveEnvRefs({ a: 'env:A', b: ['x', 'env:B'], c: { d: 'env:A' }, e: 'envelope', n: 3 }, { A: '1', B: '2' });
    expect(value).to.deep.equal({ a: '1', b: ['x', '2'], c: { d: '1' }, e: 'envelope', n: 3 });
    expect(warnings).to.deep.equal([]);
  });

  it('drops unset values: the key in an object, the whole element in an array', () => {
    const { value, warnings } = resolveEnvRefs({ a: 'env:MISSING', list: [{ apiKey: 'env:MISSING', tier: 'basic' }, { apiKey: 'env:SET' }], keys: ['env:MISSING'] }, { SET: 's' });
    expect(value).to.deep.equal({ list: [{ apiKey: 's' }], keys: [] });
    expect(warnings).to.have.length(3);
    expect(warnings[0]).to.equal('a: environment variable MISSING is not set');
  });
});
