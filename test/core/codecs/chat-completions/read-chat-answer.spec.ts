import { expect } from 'chai';
import { readChatContent, readToolArguments } from '../../../../core/codecs/chat-completions/read-chat-answer';
import { decodeChatCompletionsResponse } from '../../../../core/codecs/chat-completions/decode-response';
import { createChatCompletionsStreamDecoder } from '../../../../core/codecs/chat-completions/create-chat-completions-stream-decoder';

describe('readChatContent', () => {
  it("reads OpenAI's string, and Mistral's part list (thinking parts as reasoning)", () => {
    expect(readChatContent('hi')).to.deep.equal({ text: 'hi', reasoning: '' });
    expect(readChatContent(null)).to.deep.equal({ text: '', reasoning: '' });
    const magistral = [
      { type: 'thinking', thinking: [{ type: 'text', text: 'Two plus ' }, { type: 'text', text: 'two.' }] },
      { type: 'text', text: 'The answer is 4.' },
    ];
    expect(readChatContent(magistral)).to.deep.equal({ text: 'The answer is 4.', reasoning: 'Two plus two.' });
    expect(readChatContent([{ type: 'image_url', image_url: { url: 'x' } }, 5, 'a'])).to.deep.equal({ text: 'a', reasoning: '' });
  });

  it('gives a whole answer and a stream in that form their text and reasoning (they were empty)', () => {
    const whole = decodeChatCompletionsResponse({
      id: 'x',
      choices: [{ index: 0, message: { role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] }, { type: 'text', text: 'The answer is 4.' }] }, finish_reason: 'stop' }],
    });
    expect(whole.content).to.deep.equal([
      { type: 'reasoning', text: 'hmm', provider: 'chat-completions' },
      { type: 'text', text: 'The answer is 4.' },
    ]);
    const decoder = createChatCompletionsStreamDecoder();
    const events = [
      { id: 'x', choices: [{ index: 0, delta: { role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] }] } }] },
      { id: 'x', choices: [{ index: 0, delta: { content: [{ type: 'text', text: 'The answer' }] } }] },
      { id: 'x', choices: [{ index: 0, delta: { content: ' is 4.' }, finish_reason: 'stop' }] },
    ].flatMap((chunk) => decoder.push({ data: JSON.stringify(chunk) }));
    expect(events.flatMap((e) => (e.type === 'text_delta' || e.type === 'reasoning_delta' ? [`${e.type}:${e.text}`] : []))).to.deep.equal([
      'reasoning_delta:hmm',
      'text_delta:The answer',
      'text_delta: is 4.',
    ]);
  });

  it('reads tool arguments sent as an object (some compatible services) as their JSON text', () => {
    expect(readToolArguments('{"a":1}')).to.equal('{"a":1}');
    expect(readToolArguments({ path: 'a.txt' })).to.equal('{"path":"a.txt"}');
    expect(readToolArguments(null)).to.equal('');
    const whole = decodeChatCompletionsResponse({
      id: 'x',
      choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: { path: 'a.txt' } } }] }, finish_reason: 'tool_calls' }],
    });
    expect(whole.content).to.deep.equal([{ type: 'tool_call', id: 'c1', name: 'read', arguments: '{"path":"a.txt"}' }]);
  });
});
