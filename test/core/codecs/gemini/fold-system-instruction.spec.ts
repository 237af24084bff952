import { expect } from 'chai';
import { encodeRequest } from '../../../../core/codecs/gemini/encode-request';
import { foldSystemInstruction } from '../../../../core/codecs/gemini/fold-system-instruction';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';

describe('foldSystemInstruction', () => {
  it('puts the system text at the start of the first user turn, or in a user turn of its own before a model turn', () => {
    expect(foldSystemInstruction([{ role: 'user', parts: [{ text: 'hi' }] }], ['Be terse.', 'No emoji.'])).to.deep.equal([{ role: 'user', parts: [{ text: 'Be terse.\n\nNo emoji.\n\n' }, { text: 'hi' }] }]);
    expect(foldSystemInstruction([{ role: 'model', parts: [{ text: 'Hello!' }] }, { role: 'user', parts: [{ text: 'hi' }] }], ['Be terse.'])).to.deep.equal([
      { role: 'user', parts: [{ text: 'Be terse.\n\n' }] },
      { role: 'model', parts: [{ text: 'Hello!' }] },
      { role: 'user', parts: [{ text: 'hi' }] },
    ]);
  });

  it('is how a Gemma model gets a chat client\'s system prompt (it refuses a systemInstruction); Gemini models get one', () => {
    const request = (model: string): UnifiedRequest => ({ model, system: ['Be terse.'], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false });
    const gemma = encodeRequest(request('gemma-3-27b-it')).value;
    expect(gemma).not.to.have.property('systemInstruction');
    expect(gemma.contents).to.deep.equal([{ role: 'user', parts: [{ text: 'Be terse.\n\n' }, { text: 'hi' }] }]);
    expect(encodeRequest(request('gemini-2.5-flash')).value.systemInstruction).to.deep.equal({ parts: [{ text: 'Be terse.' }] });
  });
});
