import { expect } from 'chai';
import { isJsonTextTooDeep, scanJsonBytes } from '../../../core/validation/scan-json-bytes';

const isNestedDeeperInBytes = (bytes: Buffer, limit: number): boolean => scanJsonBytes(bytes, limit)?.kind === 'too-deep';

/** `{"a":{"a":…1…}}`: `levels` objects, one inside the other. */
function nestedObjects(levels: number): string {
  return '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

/** The depth of a value, walked the plain way: what the byte scan must agree with. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('scanJsonBytes', () => {
  const LIMIT = 8;
  const cases: Array<[string, string, boolean]> = [
    ['an empty object', '{}', false],
    ['an empty array', '[]', false],
    ['objects exactly at the limit', nestedObjects(LIMIT), false],
    ['objects one past the limit', nestedObjects(LIMIT + 1), true],
    ['arrays exactly at the limit', '['.repeat(LIMIT) + ']'.repeat(LIMIT), false],
    ['arrays one past the limit', '['.repeat(LIMIT + 1) + ']'.repeat(LIMIT + 1), true],
    ['an empty object one past the limit', '['.repeat(LIMIT) + '{}' + ']'.repeat(LIMIT), true],
    ['arrays and objects mixed, at the limit', '[{"a":'.repeat(LIMIT / 2) + 'null' + '}]'.repeat(LIMIT / 2), false],
    ['arrays and objects mixed, past the limit', '[{"a":'.repeat(LIMIT / 2) + '[]' + '}]'.repeat(LIMIT / 2), true],
    ['the deep branch last among shallow siblings', `{"a":[1,{"b":2},"c"],"z":[0,null,true,${nestedObjects(LIMIT - 1)}]}`, true],
    ['the deep branch first', `{"a":${nestedObjects(LIMIT)},"b":{}}`, true],
    ['many siblings, each shallow', JSON.stringify({ list: Array.from({ length: 50 }, (_, i) => ({ i, tags: [i, [i]] })) }), false],
    ['brackets and escaped quotes inside strings', JSON.stringify({ text: '[[[[[[[[[[{{{{{{{{{{"\\"'.repeat(20), key: { '{{{{{{{{{{': '[' } }), false],
    ['a string ending in escaped backslashes', JSON.stringify({ a: 'x\\\\', b: ['[[[[[[[[[[[[[[['] }), false],
    ['whitespace between brackets', '[ '.repeat(LIMIT + 1) + ']\n'.repeat(LIMIT + 1), true],
    ['non-ASCII text around the structure', JSON.stringify({ t: 'é漢😀'.repeat(50), d: JSON.parse(nestedObjects(LIMIT)) }), true],
  ];
  for (const [name, text, expected] of cases) {
    it(`${expected ? 'finds' : 'passes'} ${name}`, () => {
      expect(depthOf(JSON.parse(text)) > LIMIT, 'the case itself').to.equal(expected);
      expect(isNestedDeeperInBytes(Buffer.from(text), LIMIT)).to.equal(expected);
    });
  }

  it('counts the outermost value as level 1', () => {
    expect(isNestedDeeperInBytes(Buffer.from('{}'), 1)).to.equal(false);
    expect(isNestedDeeperInBytes(Buffer.from('{"a":[]}'), 1)).to.equal(true);
  });

  it('stops at the first level past the limit, before the rest of millions of brackets', () => {
    const text = Buffer.from(`{"m":${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}}`);
    expect(isNestedDeeperInBytes(text, 128)).to.equal(true);
  });

  it('leaves malformed text (an unclosed string) to the parser', () => {
    expect(isNestedDeeperInBytes(Buffer.from('{"a":"[[[[[[[[[[[[['), LIMIT)).to.equal(false);
  });

  describe('numbers too large for a double', () => {
    const parsesToInfinity = (text: string): boolean => {
      let found = false;
      JSON.parse(text, (_key, value: unknown) => {
        if (typeof value === 'number' && !Number.isFinite(value)) found = true;
        return value;
      });
      return found;
    };
    const overflowing: Array<[string, string]> = [
      ['an exponent past 308', '{"maximum":1e309}'],
      ['a negative one', '{"a":[1,-2.5E+400]}'],
      ['400 digits', `{"n":${'9'.repeat(400)}}`],
    ];
    for (const [what, text] of overflowing) {
      it(`finds ${what}`, () => {
        expect(parsesToInfinity(text), 'the case itself').to.equal(true);
        expect(scanJsonBytes(Buffer.from(text), 128)?.kind).to.equal('number-overflow');
      });
    }
    it('leaves a malformed number to the parser (1e5e5 is invalid JSON, not an overflow)', () => {
      expect(scanJsonBytes(Buffer.from('{"t":1e5e5}'), 128)).to.equal(undefined);
      expect(scanJsonBytes(Buffer.from('{"t":1e+}'), 128)).to.equal(undefined);
    });
    const fine = ['{"t":0.7,"m":1024,"x":-3,"e":1e308,"small":1e-400,"f":123456789012345678901234567890}', '{"s":"1e309 in a string","k":true,"f":false,"n":null}'];
    for (const text of fine) {
      it(`passes ${text.slice(0, 40)}`, () => {
        expect(parsesToInfinity(text), 'the case itself').to.equal(false);
        expect(scanJsonBytes(Buffer.from(text), 128)).to.equal(undefined);
      });
    }
    it('shortens a huge number in what it reports', () => {
      const hazard = scanJsonBytes(Buffer.from(`[${'9'.repeat(1000)}]`), 128);
      expect(hazard).to.deep.equal({ kind: 'number-overflow', number: `${'9'.repeat(37)}...` });
    });
  });
});

describe('isJsonTextTooDeep', () => {
  it('counts arrays and objects, not brackets inside strings (escaped quotes and backslashes included)', () => {
    expect(isJsonTextTooDeep('[[[1]]]', 3)).to.equal(false);
    expect(isJsonTextTooDeep('[[[[1]]]]', 3)).to.equal(true);
    expect(isJsonTextTooDeep('{"a":{"b":[{}]}}', 4)).to.equal(false);
    expect(isJsonTextTooDeep('{"a":{"b":[{}]}}', 3)).to.equal(true);
    expect(isJsonTextTooDeep(JSON.stringify({ text: `\\"${'[{'.repeat(100)}\\` }), 1)).to.equal(false);
    expect(isJsonTextTooDeep(JSON.stringify([`"\\`, [[1]]]), 2)).to.equal(true);
  });
});
