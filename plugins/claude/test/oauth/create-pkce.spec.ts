import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { createPkce } from '../../src/oauth/create-pkce';

describe('createPkce', () => {
  it('makes an S256 challenge of a 43-character base64url verifier, and a fresh state each time', () => {
    const a = createPkce();
    const b = createPkce();
    expect(a.verifier).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(a.challenge).to.equal(createHash('sha256').update(a.verifier).digest('base64url'));
    expect(a.state).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(a.verifier).not.to.equal(b.verifier);
    expect(a.state).not.to.equal(b.state);
  });
  it('matches the RFC 7636 appendix B example', () => {
    const bytes = Buffer.from([116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121]);
    expect(createPkce(() => bytes).challenge).to.equal('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});
