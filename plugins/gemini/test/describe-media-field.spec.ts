import { expect } from 'chai';
import type { UnifiedMediaPart, UnifiedRequest } from '@gateway/core';
import { describeMediaField } from '../src/describe-media-field';

const image: UnifiedMediaPart = { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } };
const request: UnifiedRequest = {
  model: 'm',
  system: ['a', 'b'],
  stream: false,
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'q' }] },
    { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' }, { type: 'tool_call', id: 'c2', name: 'f', arguments: '{}' }] },
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [] }, { type: 'tool_result', toolCallId: 'c2', content: [image] }] },
    { role: 'user', content: [{ type: 'text', text: 'look' }, image] },
  ],
};

describe('describeMediaField', () => {
  it("names the client's own field where the request decoder recorded it", () => {
    expect(describeMediaField(request, { ...image, clientPath: 'contents[3].parts[1]' }, { message: 3, part: 1 })).to.equal('contents[3].parts[1]');
  });

  it('otherwise gives the position in the conversation', () => {
    expect(describeMediaField(request, image, { message: 3, part: 1 })).to.equal('user message 4, content part 2');
    expect(describeMediaField(request, image, { message: 2, part: 0, toolResult: 1 })).to.equal('tool message 3, tool result 2, content part 1');
  });
});
