import { expect } from 'chai';
import { createUtf8Offsets } from '../../../core/text/utf8-offsets';

/** The walk the table replaces: from the text's start, one code point at a time. */
function walkCharAt(text: string, byte: number, end: boolean): number {
  let bytes = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.codePointAt(index)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (end ? bytes >= byte : bytes + size > byte) break;
    bytes += size;
    index += code >= 0x10000 ? 2 : 1;
  }
  return index;
}

describe('createUtf8Offsets', () => {
  const texts = ['', 'plain ascii', 'été à Zürich', '日本語のテキスト', 'emoji 😀 and 👍🏽 here', 'lone \ud800 high and \udc00 low', 'mixed é😀日a'];

  it("gives each UTF-16 offset's UTF-8 offset as Buffer.byteLength of the text before it", () => {
    for (const text of texts) {
      const { byteAt } = createUtf8Offsets(text);
      for (let index = 0; index <= text.length; index++) expect(byteAt(index), `${JSON.stringify(text)} at ${index}`).to.equal(Buffer.byteLength(text.slice(0, index)));
    }
  });

  it('gives each UTF-8 offset the UTF-16 offset of a whole character, a start before it and an end after it', () => {
    for (const text of texts) {
      const { charAt } = createUtf8Offsets(text);
      const total = Buffer.byteLength(text);
      for (let byte = -2; byte <= total + 2; byte++) {
        for (const end of [false, true]) expect(charAt(byte, end), `${JSON.stringify(text)} byte ${byte} end ${end}`).to.equal(walkCharAt(text, byte, end));
      }
      expect([charAt(Number.NaN, false), charAt(Number.NaN, true)]).to.deep.equal([text.length, text.length]);
    }
  });
});
