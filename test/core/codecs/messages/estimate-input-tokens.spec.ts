import { expect } from 'chai';
import { estimateInputTokens } from '../../../../core/codecs/messages/estimate-input-tokens';
import { decodeMessagesRequest } from '../../../../core/codecs/messages/decode-request';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';

function request(extra: Partial<UnifiedRequest>): UnifiedRequest {
  return { model: 'm', system: [], messages: [], stream: false, ...extra };
}

describe('estimateInputTokens', () => {
  it('counts characters / 4, rounded up, over system and text', () => {
    expect(estimateInputTokens(request({ system: ['abcd'], messages: [{ role: 'user', content: [{ type: 'text', text: 'efghi' }] }] }))).to.equal(3);
  });

  it('counts tool definitions, tool calls and tool results', () => {
    const bare = estimateInputTokens(request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }));
    const withTools = estimateInputTokens(request({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'x' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'lookup', arguments: '{"q":"a long query"}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c', content: [{ type: 'text', text: 'a'.repeat(400) }] }] },
      ],
      tools: [{ name: 'lookup', description: 'Look things up', parameters: { type: 'object', properties: { q: { type: 'string' } } } }],
    }));
    expect(withTools).to.be.greaterThan(bare + 100);
  });

  it('adds a fixed amount per image instead of counting base64 characters', () => {
    const image = estimateInputTokens(request({
      messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'A'.repeat(400_000) } }] }],
    }));
    expect(image).to.equal(1600);
  });

  it('never answers 0, and grows with a decoded Messages request', () => {
    expect(estimateInputTokens(request({}))).to.equal(1);
    const small = decodeMessagesRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const large = decodeMessagesRequest({ model: 'm', system: 'x'.repeat(4000), messages: [{ role: 'user', content: 'hi' }] });
    expect(estimateInputTokens(large) - estimateInputTokens(small)).to.equal(1000);
  });
});
