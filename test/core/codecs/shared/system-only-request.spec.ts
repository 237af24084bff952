import { expect } from 'chai';
import { encodeRequest as encodeGeminiRequest } from '../../../../core/codecs/gemini/encode-request';
import { encodeMessagesRequest } from '../../../../core/codecs/messages/encode-request';
import { decodeChatCompletionsRequest } from '../../../../core/codecs/chat-completions/decode-request';
import { systemOnlyAsUserTurn } from '../../../../core/codecs/shared/system-only-request';

describe('systemOnlyAsUserTurn', () => {
  // A LangChain prompt made of a system message only: OpenAI answers it.
  const systemOnly = decodeChatCompletionsRequest({ model: 'm', messages: [{ role: 'system', content: 'List three colours.' }, { role: 'developer', content: 'One per line.' }] });

  it('sends a request of system text only to Claude and Gemini as one user turn of that text', () => {
    expect(encodeMessagesRequest({ ...systemOnly, model: 'claude-sonnet-4-6' }).value).to.deep.include({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'List three colours.\n\nOne per line.' }] }],
    });
    expect(encodeMessagesRequest({ ...systemOnly, model: 'claude-sonnet-4-6' }).value).not.to.have.property('system');
    const gemini = encodeGeminiRequest({ ...systemOnly, model: 'gemini-2.5-flash' }).value;
    expect(gemini.contents).to.deep.equal([{ role: 'user', parts: [{ text: 'List three colours.\n\nOne per line.' }] }]);
    expect(gemini).not.to.have.property('systemInstruction');
  });

  it('leaves a request with a turn, or with no text at all, as it is', () => {
    const withTurn = decodeChatCompletionsRequest({ model: 'm', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] });
    expect(systemOnlyAsUserTurn(withTurn)).to.equal(withTurn);
    const empty = { ...withTurn, system: [], messages: [] };
    expect(systemOnlyAsUserTurn(empty)).to.equal(empty);
  });
});
