import { expect } from 'chai';
import { createCredentialMasker } from '../../../core/errors/mask-echoed-credentials';

const KEY = 'sk-proj-SECRETOPENAI-0001abcd';
/** As maskSecret shows it: the vendor's prefix and the last 4 characters. */
const MASKED = `sk-proj-${'*'.repeat(KEY.length - 12)}abcd`;

/** The body as the client gets it when the upstream sends it in `pieces`. */
function relay(pieces: string[], credentials = [KEY]): { sent: string[]; whole: string } {
  const masker = createCredentialMasker(credentials)!;
  const sent = pieces.map((piece) => masker.push(Buffer.from(piece)).toString());
  sent.push(masker.end().toString());
  return { sent, whole: sent.join('') };
}

describe('createCredentialMasker', () => {
  const event = `data: {"error":{"message":"bad key; headers: authorization: Bearer ${KEY}"}}\n\n`;

  it('masks a credential the body echoes, keeping the length', () => {
    const { whole } = relay([event]);
    expect(whole).to.equal(event.replace(KEY, MASKED));
    expect(whole.length).to.equal(event.length);
  });

  it('masks one split across chunks at every point, and holds nothing back otherwise', () => {
    for (let cut = 1; cut < event.length; cut += 1) {
      expect(relay([event.slice(0, cut), event.slice(cut)]).whole).to.equal(event.replace(KEY, MASKED), `cut at ${cut}`);
    }
    // An ordinary event goes on whole: nothing in it could begin the key.
    const plain = 'data: {"choices":[{"delta":{"content":"hello"}}]}\n\n';
    expect(relay([plain]).sent[0]).to.equal(plain);
  });

  it('masks every occurrence and every credential, and a start of one left at the end as well', () => {
    const other = 'acct-second-token-0000002';
    const { whole } = relay([`${KEY} and ${other} and ${KEY}`, ' then sk-proj-SEC'], [KEY, other]);
    expect(whole).to.equal(`${MASKED} and ${'*'.repeat(other.length - 4)}0002 and ${MASKED} then ***********`);
  });

  it('gives back as they are the bytes it held only because they could begin a credential (a body ending in "s")', () => {
    expect(relay(['{"ok":true,"text":"yes"}\n', 's']).whole).to.equal('{"ok":true,"text":"yes"}\ns');
    expect(relay(['... sk-']).whole).to.equal('... sk-');
    // Four characters or more of one are masked whole: no part of a key leaves at the end of a body cut inside it.
    expect(relay(['... sk-proj-']).whole).to.equal('... ********');
  });

  it('shows nothing of a short credential and no leading word that is not a vendor prefix, as maskSecret does', () => {
    expect(relay(['your key is hunter22'], ['hunter22']).whole).to.equal('your key is ********');
    expect(relay(['{"k":"pw-9x7Q2k"}'], ['pw-9x7Q2k']).whole).to.equal('{"k":"*********"}');
    expect(relay(['raw team-alpha-SECRET-0001'], ['team-alpha-SECRET-0001']).whole).to.equal(`raw ${'*'.repeat(18)}0001`);
  });

  it('is not made for credentials too short to tell from text, numbers or base64 (under 8 characters)', () => {
    expect(createCredentialMasker(['test', '123456', 'hunter2', ''])).to.equal(undefined);
  });
});
