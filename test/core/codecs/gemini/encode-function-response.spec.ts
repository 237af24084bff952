import { expect } from 'chai';
import { encodeFunctionResponse } from '../../../../core/codecs/gemini/encode-function-response';

describe('encodeFunctionResponse', () => {
  it('sends JSON object text as that object, other text wrapped as result (error for a failed call)', () => {
    expect(encodeFunctionResponse({ type: 'tool_result', toolCallId: 'c', content: [{ type: 'text', text: '{"temp":21}' }] })).to.deep.equal({ temp: 21 });
    expect(encodeFunctionResponse({ type: 'tool_result', toolCallId: 'c', content: [{ type: 'text', text: 'sunny' }] })).to.deep.equal({ result: 'sunny' });
    expect(encodeFunctionResponse({ type: 'tool_result', toolCallId: 'c', isError: true, content: [{ type: 'text', text: '{"a":1}' }] })).to.deep.equal({ error: '{"a":1}' });
  });

  it('puts several text blocks lines apart, as a chat tool message has them (run together, words met)', () => {
    const part = { type: 'tool_result' as const, toolCallId: 'c', content: [{ type: 'text' as const, text: 'file:notes.txt' }, { type: 'text' as const, text: 'Doc body' }] };
    expect(encodeFunctionResponse(part)).to.deep.equal({ result: 'file:notes.txt\nDoc body' });
  });
});
