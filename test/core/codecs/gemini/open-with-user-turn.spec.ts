import { expect } from 'chai';
import { openWithUserTurn } from '../../../../core/codecs/gemini/open-with-user-turn';
import type { GeminiContent } from '../../../../core/codecs/gemini/gemini-types';

const CALL: GeminiContent = { role: 'model', parts: [{ functionCall: { name: 'ls', args: {} } }] };
const RESULT: GeminiContent = { role: 'user', parts: [{ functionResponse: { name: 'ls', response: { result: 'a' } } }] };
const USER: GeminiContent = { role: 'user', parts: [{ text: 'hi' }] };
const MODEL: GeminiContent = { role: 'model', parts: [{ text: 'Hello!' }] };

describe('openWithUserTurn', () => {
  it('puts a neutral user turn before a history that opens with a function call (Gemini refuses that)', () => {
    expect(openWithUserTurn([CALL, RESULT, USER])).to.deep.equal([{ role: 'user', parts: [{ text: '(conversation continues)' }] }, CALL, RESULT, USER]);
  });

  const unchanged: Array<[string, GeminiContent[]]> = [
    ['a history that opens with a user turn', [USER, CALL, RESULT]],
    ['one that opens with model text', [MODEL, USER]],
    ['no history', []],
  ];
  for (const [what, contents] of unchanged) {
    it(`leaves ${what} as it is`, () => {
      expect(openWithUserTurn(contents)).to.equal(contents);
    });
  }
});
