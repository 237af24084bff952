import { expect } from 'chai';
import type { UnifiedRequest } from '@gateway/core';
import { describeMediaField } from '../src/describe-media-field';

const request: UnifiedRequest = {
  model: 'm',
  system: ['a', 'b'],
  stream: false,
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'q' }] },
    { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' }, { type: 'tool_call', id: 'c2', name: 'f', arguments: '{}' }] },
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [] }, { type: 'tool_result', toolCallId: 'c2', content: [] }] },
    { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }] },
  ],
};

describe('describeMediaField', () => {
  it('gives chat clients the exact path, counting leading system messages and one message per tool result', () => {
    expect(describeMediaField(request, 'chat-completions', { message: 3, part: 1 })).to.equal('messages[6].content[1]');
    expect(describeMediaField(request, 'chat-completions', { message: 2, part: 0, toolResult: 1 })).to.equal('messages[5].content[0]');
    expect(describeMediaField(request, 'chat-completions', { message: 0, part: 0 })).to.equal('messages[2].content[0]');
  });

  it('gives other formats the position in the conversation', () => {
    expect(describeMediaField(request, 'messages', { message: 3, part: 1 })).to.equal('user message 4, content part 2');
    expect(describeMediaField(request, 'responses', { message: 2, part: 0, toolResult: 1 })).to.equal('tool message 3, tool result 2, content part 1');
  });
});
