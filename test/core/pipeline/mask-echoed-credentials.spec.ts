import { expect } from 'chai';
import { createCredentialMasker } from '../../../core/pipeline/mask-echoed-credentials';

const KEY = 'sk-proj-SECRETOPENAI-0001abcd';
const MASKED = `sk-${'*'.repeat(KEY.length - 7)}abcd`;

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
    expect(whole).to.equal(`${MASKED} and acc${'*'.repeat(other.length - 7)}0002 and ${MASKED} then sk-********`);
  });

  it('gives back as they are the bytes it held only because they could begin a credential (a body ending in "s")', () => {
    expect(relay(['{"ok":true,"text":"yes"}\n', 's']).whole).to.equal('{"ok":true,"text":"yes"}\ns');
    expect(relay(['... sk-proj-']).whole).to.equal('... sk-proj-');
  });

  it('is not made for credentials too short to tell from text', () => {
    expect(createCredentialMasker(['short', ''])).to.equal(undefined);
  });
});
