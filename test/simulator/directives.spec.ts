import { expect } from 'chai';
import { buildToolArguments, credentialBehaviour, estimateTokens, parseDirectives, splitEven } from '../../simulator/directives';

describe('simulator directives', () => {
  describe('parseDirectives', () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ['plain text', 'plain text', { midstreamError: false, tool: false, thinking: false, hang: false }],
      ['hi [sim:error=429]', 'hi', { error: 429 }],
      ['[sim:error=529] overloaded', 'overloaded', { error: 529 }],
      ['a [sim:chunks=7] b [sim:delay=25]', 'a b', { chunks: 7, delayMs: 25 }],
      ['x [sim:tool][sim:thinking]', 'x', { tool: true, thinking: true }],
      ['[sim:midstream-error]', '', { midstreamError: true }],
      ['wait [sim:hang]', 'wait', { hang: true }],
      ['bad values [sim:error=200] [sim:chunks=0] [sim:error=abc]', 'bad values', { error: undefined, chunks: undefined }],
      ['unknown [sim:whatever=1] kept out', 'unknown kept out', {}],
      ['not a directive [sim error=500]', 'not a directive [sim error=500]', { error: undefined }],
    ];
    for (const [input, text, expected] of cases) {
      it(`reads ${JSON.stringify(input)}`, () => {
        const parsed = parseDirectives(input);
        expect(parsed.text).to.equal(text);
        for (const [name, value] of Object.entries(expected)) expect(parsed.directives[name as keyof typeof parsed.directives]).to.equal(value);
      });
    }
  });

  describe('splitEven', () => {
    const cases: [string, number, string[]][] = [
      ['Echo: hi', 3, ['Ech', 'o: ', 'hi']],
      ['abcdef', 3, ['ab', 'cd', 'ef']],
      ['abc', 5, ['a', 'b', 'c']],
      ['abc', 1, ['abc']],
      ['', 3, ['']],
      ['héllo 👋🏽', 2, ['héll', 'o 👋🏽']], // code points: surrogate pairs stay whole
    ];
    for (const [text, pieces, expected] of cases) {
      it(`cuts ${JSON.stringify(text)} into ${pieces}`, () => {
        expect(splitEven(text, pieces)).to.deep.equal(expected);
        expect(splitEven(text, pieces).join('')).to.equal(text);
      });
    }
  });

  it('estimates a quarter of the characters, rounded up, at least 1', () => {
    expect([estimateTokens(''), estimateTokens('abcd'), estimateTokens('abcde'), estimateTokens('x'.repeat(400))]).to.deep.equal([1, 1, 2, 100]);
  });

  it('reads the credential behaviours', () => {
    expect(['sk-banned-1', 'tok-QUOTA', 'limited-x', 'sk-ok', undefined].map(credentialBehaviour)).to.deep.equal(['banned', 'quota', 'limited', undefined, undefined]);
  });

  describe('buildToolArguments', () => {
    it('fills each required property by type, JSON Schema or Gemini upper-case types', () => {
      const schema = {
        type: 'object',
        properties: {
          s: { type: 'string' },
          n: { type: 'number' },
          i: { type: 'INTEGER' },
          b: { type: 'boolean' },
          a: { type: 'array', items: { type: 'string' } },
          o: { type: 'object', properties: { inner: { type: 'string' } }, required: ['inner'] },
          nullable: { type: ['null', 'integer'] },
          optional: { type: 'string' },
        },
        required: ['s', 'n', 'i', 'b', 'a', 'o', 'nullable', 'untyped'],
      };
      expect(buildToolArguments(schema)).to.deep.equal({ s: 'x', n: 1, i: 1, b: true, a: [], o: { inner: 'x' }, nullable: 1, untyped: 'x' });
    });

    it('gives {} for a schema without required properties or no schema', () => {
      expect(buildToolArguments({ type: 'object', properties: { a: { type: 'string' } } })).to.deep.equal({});
      expect(buildToolArguments(undefined)).to.deep.equal({});
    });
  });
});
