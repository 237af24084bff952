import { expect } from 'chai';
import { isNestedDeeperThan } from '../../../core/validation/is-nested-deeper-than';

/** `{"a":{"a":…1…}}`: `levels` objects, one inside the other. */
function nestedObjects(levels: number): string {
  return '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

/** The depth of a value, walked the plain way: what isNestedDeeperThan must agree with. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('isNestedDeeperThan', () => {
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
    ['a "__proto__" key holding the deep branch', `{"__proto__":${nestedObjects(LIMIT)}}`, true],
    ['numeric keys', `{"0":{"1":{"2":${nestedObjects(LIMIT - 2)}}}}`, true],
  ];
  for (const [name, text, expected] of cases) {
    it(`${expected ? 'finds' : 'passes'} ${name}`, () => {
      const value = JSON.parse(text) as object;
      expect(depthOf(value) > LIMIT, 'the case itself').to.equal(expected);
      expect(isNestedDeeperThan(value, LIMIT)).to.equal(expected);
    });
  }

  it('answers for a value 100,000 levels deep without overflowing the stack', () => {
    const value = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as object;
    expect(isNestedDeeperThan(value, 128)).to.equal(true);
  });

  it('counts the outermost value as level 1', () => {
    expect(isNestedDeeperThan({}, 1)).to.equal(false);
    expect(isNestedDeeperThan({ a: [] }, 1)).to.equal(true);
    expect(isNestedDeeperThan({}, 0)).to.equal(true);
  });
});
