import { expect } from 'chai';
import { maskToken, maskTokensIn } from '../src/mask-token';

describe('token-pool maskToken', () => {
  it('shows the last 4 characters only, never a prefix', () => {
    expect(maskToken('acct-alice-0123456789')).to.equal('...6789');
    expect(maskToken('short')).to.equal('****');
  });

  it('masks every occurrence of every token in a text', () => {
    expect(maskTokensIn('bad token acct-alice-0123456789 (acct-alice-0123456789), ok', ['acct-alice-0123456789', 'unused-token-1'])).to.equal('bad token ...6789 (...6789), ok');
  });
});
