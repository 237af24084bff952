import { expect } from 'chai';
import { MIN_MASKED_SECRET_LENGTH, maskCredential, maskGivenSecrets, maskSecret, maskSecretsIn } from '../../../core/errors/mask-secret';

/** The characters of a masked secret that come from the secret itself, beyond a vendor's shown prefix. */
function revealed(masked: string): string {
  return masked.replace(/^(?:sk-ant-|sk-proj-|sk-svcacct-|sk-admin-|sk-|xai-)(?=\.\.\.)/, '').replace('...', '').replace('****', '');
}

describe('maskSecret', () => {
  const cases: Array<[secret: string, masked: string]> = [
    // A vendor's key prefix says which kind of key it is, not whose: it stays, with the last 4 characters.
    ['sk-ant-api03-abcdefghijklmnopa1b2', 'sk-ant-...a1b2'],
    ['sk-ant-sid01-good-session-0000000000000001', 'sk-ant-...0001'],
    ['sk-ant-oat01-abcdefghijklmnopqrstuv9876', 'sk-ant-...9876'],
    ['sk-proj-abcdefghijklmnopqrstu0123', 'sk-proj-...0123'],
    ['sk-abcdefghijklmnopqrstuvwx', 'sk-...uvwx'],
    ['xai-PUMPspecSECRETkey0001', 'xai-...0001'],
    ['AIzaSyAbcdefghijklmnopqrstuvwxyz12345', '...2345'],
    // Any other leading word may be part of the secret: only the last 4 characters show.
    ['local-dev-key', '...-key'],
    ['vllm-team-token-0042', '...0042'],
    ['team-alpha-9876', '...9876'],
    ['acct-alice-0123456789', '...6789'],
    ['sk-local-dev-key', '...-key'],
    ['sk-test-0123456789abcdef', 'sk-...cdef'],
    // A vendor prefix with little behind it is not kept: what stays hidden would be a handful of characters.
    ['sk-ant-api03-sim-0001', '...0001'],
    ['sk-team-0042', '...0042'],
    // Under 12 characters nothing shows: 4 of them would be a third of the secret or more.
    ['abcdefghijkl', '...ijkl'],
    ['abcdefghijk', '****'],
    ['hunter2', '****'],
    ['short', '****'],
    ['', '****'],
  ];
  for (const [secret, masked] of cases) {
    it(`${JSON.stringify(secret)} → ${masked}`, () => expect(maskSecret(secret)).to.equal(masked));
  }

  it('never shows more than the last 4 characters, nor a third of a secret, whatever its words and length', () => {
    const words = ['sk', 'ant', 'api03', 'local', 'dev', 'key', 'team', 'alpha', 'x', 'proj', 'xai', '0042', 'token'];
    for (let length = 1; length <= 6; length += 1) {
      for (let start = 0; start < words.length; start += 1) {
        const secret = Array.from({ length }, (_, i) => words[(start + i * 5) % words.length]).join('-');
        const shown = revealed(maskSecret(secret));
        expect(shown.length, secret).to.be.at.most(4);
        expect(shown.length, secret).to.be.at.most(secret.length / 3);
        expect(secret.endsWith(shown), secret).to.equal(true);
      }
    }
  });
});

describe('maskSecretsIn', () => {
  it('masks each given secret wherever it appears, and sk- keys even when not given', () => {
    expect(maskSecretsIn('key=sk-abcdefghijklmnopqrstuvwx!')).to.equal('key=sk-...uvwx!');
    expect(maskSecretsIn('The key local-dev-key is not allowed (local-dev-key)', ['local-dev-key'])).to.equal('The key ...-key is not allowed (...-key)');
    expect(maskSecretsIn('The key vllm-team-token-0042 is not allowed', ['vllm-team-token-0042'])).to.equal('The key ...0042 is not allowed');
  });

  it(`masks short secrets too, down to ${MIN_MASKED_SECRET_LENGTH} characters, and leaves shorter strings alone`, () => {
    expect(maskSecretsIn('The key hunter2 is not allowed', ['hunter2'])).to.equal('The key **** is not allowed');
    expect(maskSecretsIn('bad key abcd', ['abcd'])).to.equal('bad key ****');
    // 1-3 characters occur by chance in any text: masking them would garble the message and hide nothing.
    expect(maskSecretsIn('abc here, x there', ['abc', 'x', ''])).to.equal('abc here, x there');
  });

  it('masks a secret that contains another one whole, in whatever order they are given', () => {
    const long = 'abcdefgh12345678wxyz';
    for (const secrets of [['abcdefgh', long], [long, 'abcdefgh']]) {
      expect(maskGivenSecrets(`key ${long} and abcdefgh`, secrets)).to.equal('key ...wxyz and ****');
    }
  });

  it('names a configured credential in admin views by its last 4 characters only (DECISIONS §9), **** when short', () => {
    expect(maskCredential('sk-ant-api03-simulated-upstream-key-0001')).to.equal('...0001');
    expect(maskCredential('tok-aaaaaaaaaaaa-0001')).to.equal('...0001');
    expect(maskCredential('hunter2')).to.equal('****');
  });
});
