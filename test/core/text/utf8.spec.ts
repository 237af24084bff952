import { expect } from 'chai';
import { decodeUtf8 } from '../../../core/text/utf8';

/** Text of about `bytes` UTF-8 bytes, built from `piece`. */
function textOf(piece: string, bytes: number): Buffer {
  return Buffer.from(piece.repeat(Math.ceil(bytes / Buffer.byteLength(piece))));
}

/** decodeUtf8's answer, and whether it fell back to `bytes.toString('utf8')` (V8's decoder) for the whole body. */
function decodeWatched(bytes: Buffer): { text: string; fellBack: boolean } {
  let fellBack = false;
  const watched = Buffer.from(bytes);
  watched.toString = function (this: Buffer, ...args: Parameters<Buffer['toString']>) {
    if (args[0] === 'utf8') fellBack = true;
    return Buffer.prototype.toString.apply(this, args);
  };
  return { text: decodeUtf8(watched), fellBack };
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

  // Characters of 2, 3 and 4 bytes at every alignment, and an invalid run of continuation bytes at several places.
  for (const [name, char] of [['2-byte', 'é'], ['3-byte', '€'], ['4-byte', '😀']]) {
    for (let shift = 0; shift < 4; shift += 1) {
      it(`decodes ${name} characters at offset ${shift} without V8's decoder`, () => {
        const bytes = Buffer.concat([Buffer.from('a'.repeat(shift)), textOf(char, 100 * 1024)]);
        const { text, fellBack } = decodeWatched(bytes);
        expect(text).to.equal(bytes.toString('utf8'));
        // Valid UTF-8 is converted by ICU, never handed back to V8's decoder.
        expect(fellBack).to.equal(false);
      });
    }
  }

  for (const at of [2, 3, 4 * 1024, 32 * 1024 + 1, 80 * 1024 - 5]) {
    it(`replaces a run of 5 continuation bytes at byte ${at} as toString does`, () => {
      const bytes = Buffer.from(textOf('ab', 80 * 1024));
      bytes[0] = 0xc3;
      bytes[1] = 0xa9;
      bytes.fill(0x80, at, at + 5);
      const { text, fellBack } = decodeWatched(bytes);
      expect(text).to.equal(bytes.toString('utf8'));
      expect(fellBack).to.equal(true);
    });
  }

  it('decodes a valid body right after one cut inside its last character (no state left over)', () => {
    const whole = textOf('😀', 16 * 1024);
    const cut = whole.subarray(0, whole.length - 2);
    expect(decodeWatched(cut)).to.deep.equal({ text: cut.toString('utf8'), fellBack: true });
    expect(decodeWatched(whole)).to.deep.equal({ text: whole.toString('utf8'), fellBack: false });
  });

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

  it('leaves text over 4 MB to V8 (ICU would need a scratch buffer twice its size), and up to 4 MB to ICU', () => {
    const over = Buffer.concat([textOf('café ', 4 * 1024 * 1024 - 3), Buffer.from('end')]);
    expect(over.length).to.be.greaterThan(4 * 1024 * 1024);
    expect(decodeWatched(over)).to.deep.equal({ text: over.toString('utf8'), fellBack: true });
    const at = over.subarray(0, 4 * 1024 * 1024 - 2);
    expect(at.length).to.equal(4 * 1024 * 1024 - 2);
    expect(decodeWatched(at)).to.deep.equal({ text: at.toString('utf8'), fellBack: false });
  });

  it('decodes an empty buffer to an empty string', () => {
    expect(decodeUtf8(Buffer.alloc(0))).to.equal('');
  });
});
