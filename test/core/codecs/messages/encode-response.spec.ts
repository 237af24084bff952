import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import { encodeMessagesResponse } from '../../../../core/codecs/messages/encode-response';
import { decodeMessagesResponse } from '../../../../core/codecs/messages/decode-response';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import type { UnifiedResponse } from '../../../../core/unified/unified-response';
import { readMessagesFixture } from './messages-fixtures';

const REQUEST: UnifiedRequest = { model: 'claude-sonnet-4-6', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

/** A unified answer as a chat-completions upstream would give it. */
const FROM_CHAT: UnifiedResponse = {
  id: 'chatcmpl-abc123',
  model: 'gpt-4.1-mini',
  created: 1_750_000_000,
  content: [
    { type: 'reasoning', text: 'thinking it over', provider: 'chat-completions' },
    { type: 'text', text: 'Calling the tool.' },
    { type: 'tool_call', id: 'call_XYZ', name: 'get_weather', arguments: '{"city":"Paris"}' },
  ],
  finishReason: 'tool_calls',
  usage: { inputTokens: 120, outputTokens: 30, totalTokens: 150, cachedInputTokens: 100 },
};

/** The official SDK, answering every call with `body`. */
function sdkAnswering(body: unknown): Anthropic {
  return new Anthropic({
    apiKey: 'x',
    baseURL: 'http://sdk.test',
    maxRetries: 0,
    fetch: async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
  });
}

describe('encodeMessagesResponse', () => {
  it('gives back the response fixtures after decoding them', () => {
    for (const name of ['response-basic.json', 'response-thinking.json', 'response-tool-use.json']) {
      const wire = readMessagesFixture(name) as Record<string, unknown>;
      const body = encodeMessagesResponse(decodeMessagesResponse(wire), REQUEST);
      expect(body, name).to.deep.include({ id: wire.id, type: 'message', role: 'assistant', model: wire.model, content: wire.content, stop_reason: wire.stop_reason, stop_sequence: null });
      const usage = wire.usage as Record<string, number>;
      expect(body.usage, name).to.deep.equal({
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: usage.output_tokens,
      });
    }
  });

  it('shapes ids, tool input and usage from another format', () => {
    const body = encodeMessagesResponse(FROM_CHAT, REQUEST);
    expect(body.id).to.match(/^msg_/);
    expect(body.model).to.equal('gpt-4.1-mini');
    expect(body.content).to.deep.equal([
      { type: 'thinking', thinking: 'thinking it over', signature: '' },
      { type: 'text', text: 'Calling the tool.' },
      { type: 'tool_use', id: 'toolu_XYZ', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(body.stop_reason).to.equal('tool_use');
    expect(body.usage).to.deep.equal({ input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 100, output_tokens: 30 });
  });

  it('maps finish reasons, with stop_sequence when a stop sequence ended the answer', () => {
    const stop = (finishReason: UnifiedResponse['finishReason'], stopSequence?: string) =>
      encodeMessagesResponse({ ...FROM_CHAT, content: [], finishReason, stopSequence }, REQUEST);
    expect(stop('stop').stop_reason).to.equal('end_turn');
    expect(stop('stop', 'END')).to.deep.include({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
    expect(stop('length').stop_reason).to.equal('max_tokens');
    expect(stop('content_filter').stop_reason).to.equal('refusal');
    expect(stop('other').stop_reason).to.equal('end_turn');
    // A chat model's refusal (message.refusal) is Anthropic's refusal, not a turn that ended.
    const refusal = encodeMessagesResponse({ ...FROM_CHAT, content: [{ type: 'text', text: 'I cannot help with that.', refusal: true }], finishReason: 'stop' }, REQUEST);
    expect(refusal).to.deep.include({ stop_reason: 'refusal', content: [{ type: 'text', text: 'I cannot help with that.' }] });
  });

  it('renders a generated image as an image block and hides foreign thoughts when the client asked for none', () => {
    const body = encodeMessagesResponse(
      { ...FROM_CHAT, content: [{ type: 'reasoning', text: 't', provider: 'gemini' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } }] },
      { ...REQUEST, reasoning: { includeThoughts: false } },
    );
    expect(body.content).to.deep.equal([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }]);
  });

  it('is parsed by the official SDK (client.messages.create)', async () => {
    const client = sdkAnswering(encodeMessagesResponse(FROM_CHAT, REQUEST));
    const message = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content.map((b) => b.type)).to.deep.equal(['thinking', 'text', 'tool_use']);
    const toolUse = message.content[2];
    expect(toolUse.type === 'tool_use' && toolUse.input).to.deep.equal({ city: 'Paris' });
    const text = message.content[1];
    expect(text.type === 'text' && text.text).to.equal('Calling the tool.');
    expect(message.stop_reason).to.equal('tool_use');
    expect(message.usage.input_tokens + (message.usage.cache_read_input_tokens ?? 0)).to.equal(120);
    expect(message.usage.output_tokens).to.equal(30);
  });
});
