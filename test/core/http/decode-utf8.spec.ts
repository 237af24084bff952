import { expect } from 'chai';
import { decodeUtf8 } from '../../../core/http/decode-utf8';

/** Text of about `bytes` UTF-8 bytes, built from `piece`. */
function textOf(piece: string, bytes: number): Buffer {
  return Buffer.from(piece.repeat(Math.ceil(bytes / Buffer.byteLength(piece))));
}

describe('decodeUtf8', () => {
  const pieces: Array<[string, string]> = [
    ['ASCII', 'The quick brown fox jumps over the lazy dog. '],
    ['one accented letter', 'The quick brown fox, café au lait. '],
    ['emoji (surrogate pairs)', 'ok 😀 then 👩‍💻 and 🇫🇷. '],
    ['CJK and Cyrillic', '漢字とかな、кириллица. '],
    ['a byte order mark and a NUL', '\uFEFFstart\u0000end '],
  ];
  for (const [name, piece] of pieces) {
    for (const size of [100, 4 * 1024 - 1, 4 * 1024, 64 * 1024, 300 * 1024]) {
      it(`gives what toString('utf8') gives: ${name}, ${size} bytes`, () => {
        const bytes = textOf(piece, size);
        expect(decodeUtf8(bytes)).to.equal(bytes.toString('utf8'));
      });
    }
  }

  it('starts large text with a BOM as toString does (kept: JSON.parse rejects it either way)', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), textOf('café ', 8 * 1024)]);
    expect(decodeUtf8(bytes).charCodeAt(0)).to.equal(0xfeff);
    expect(decodeUtf8(bytes)).to.equal(bytes.toString('utf8'));
  });

  // Invalid sequences: a stray continuation byte, a truncated sequence, an overlong form, a UTF-16 surrogate, and
  // the body cut in the middle of a character.
  const invalid: Array<[string, number[]]> = [
    ['a stray continuation byte', [0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
    ['an overlong form', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a byte never valid', [0xff]],
  ];
  for (const [name, seq] of invalid) {
    it(`replaces ${name} in a large body as toString does`, () => {
      const half = textOf('café ', 16 * 1024);
      const bytes = Buffer.concat([half, Buffer.from(seq), half]);
      const decoded = decodeUtf8(bytes);
      expect(decoded).to.equal(bytes.toString('utf8'));
      expect(decoded).to.include('\uFFFD');
    });
  }

  it('decodes a large body cut inside its last character as toString does', () => {
    const whole = textOf('😀', 16 * 1024);
    const cut = whole.subarray(0, whole.length - 1);
    expect(decodeUtf8(cut)).to.equal(cut.toString('utf8'));
  });

  it('decodes a view into a larger buffer, not the buffer around it', () => {
    const outer = textOf('é', 64 * 1024);
    const view = outer.subarray(2, 2 + 16 * 1024);
    expect(decodeUtf8(view)).to.equal('é'.repeat(8 * 1024));
  });

  it('decodes an empty buffer to an empty string', () => {
    expect(decodeUtf8(Buffer.alloc(0))).to.equal('');
  });
});
