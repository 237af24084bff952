import { expect } from 'chai';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import { decodeMessagesResponse } from '../../../../core/codecs/messages/decode-response';
import { readMessagesFixture } from './messages-fixtures';

const SIGNATURE =
  'EqQBCkgIBxABGAIqQJ3vW6mZ8pT0rXcKq4yN1sL2dF5gH7jK9mQ3wE6rT8yU0iO2pA4sD6fG8hJ1kL3zX5cV7bN9mQ1wE3rT5yU7iO9pEgx0eXBlX3NpZ19maXh0dXJlGgwxMjM0NTY3ODkwYWIiMGZpeHR1cmUtc2lnbmF0dXJlLW5vdC1yZWFsLWp1c3QtYmFzZTY0LXNoYXBlZA==';

function thrown(body: unknown): unknown {
  try {
    decodeMessagesResponse(body);
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('decodeMessagesResponse', () => {
  it('decodes response-basic.json', () => {
    const res = decodeMessagesResponse(readMessagesFixture('response-basic.json'));
    expect(res).to.deep.include({
      id: 'msg_01HCDu5LRGeP2o7s2xGmxyFE',
      model: 'claude-sonnet-4-6',
      content: [{ type: 'text', text: 'Hello, nice to meet you!' }],
      finishReason: 'stop',
      usage: { inputTokens: 19, outputTokens: 11, totalTokens: 30, cachedInputTokens: 0, cacheCreationInputTokens: 0 },
    });
    expect(res.created).to.be.a('number').and.greaterThan(1_700_000_000);
  });

  it('decodes response-thinking.json: thinking with signature → messages reasoning part', () => {
    const res = decodeMessagesResponse(readMessagesFixture('response-thinking.json'));
    expect(res.content).to.deep.equal([
      { type: 'reasoning', text: 'The user asks whether 1071 is divisible by 7. 7 × 153 = 1071, so yes.', signature: SIGNATURE, provider: 'messages' },
      { type: 'text', text: 'Yes — 1071 = 7 × 153.' },
    ]);
  });

  it('decodes response-tool-use.json: tool_use input → JSON text, stop_reason tool_use → tool_calls', () => {
    const res = decodeMessagesResponse(readMessagesFixture('response-tool-use.json'));
    expect(res.content[1]).to.deep.equal({
      type: 'tool_call',
      id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn',
      name: 'get_weather',
      arguments: '{"city":"Paris","unit":"celsius"}',
    });
    expect(res.finishReason).to.equal('tool_calls');
  });

  it('adds cache reads and writes to the input tokens and keeps thinking tokens', () => {
    const res = decodeMessagesResponse({
      id: 'msg_1',
      model: 'm',
      content: [{ type: 'redacted_thinking', data: 'xyz' }],
      stop_reason: 'stop_sequence',
      stop_sequence: '###',
      usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: 7, output_tokens_details: { thinking_tokens: 4 } },
    });
    expect(res.usage).to.deep.equal({
      inputTokens: 115,
      outputTokens: 7,
      totalTokens: 122,
      cachedInputTokens: 100,
      cacheCreationInputTokens: 5,
      reasoningTokens: 4,
    });
    expect(res.finishReason).to.equal('stop');
    expect(res.stopSequence).to.equal('###');
    expect(res.content).to.deep.equal([{ type: 'reasoning', text: '', redactedData: 'xyz', provider: 'messages' }]);
  });

  it('maps every stop_reason', () => {
    const reasons: Record<string, string> = {
      end_turn: 'stop',
      stop_sequence: 'stop',
      pause_turn: 'stop',
      max_tokens: 'length',
      model_context_window_exceeded: 'length',
      tool_use: 'tool_calls',
      refusal: 'content_filter',
      something_new: 'other',
    };
    for (const [wire, unified] of Object.entries(reasons)) {
      expect(decodeMessagesResponse({ id: 'x', model: 'm', content: [], stop_reason: wire, usage: {} }).finishReason, wire).to.equal(unified);
    }
  });

  it('skips server-tool blocks', () => {
    const res = decodeMessagesResponse({
      id: 'x',
      model: 'm',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
        { type: 'text', text: 'Found it.', citations: [{ type: 'web_search_result_location', url: 'https://e.com' }] },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    expect(res.content).to.deep.equal([{ type: 'text', text: 'Found it.' }]);
  });

  it('throws the upstream error for an error envelope, 529 overload as GW_UPSTREAM_OVERLOADED', () => {
    const overloaded = thrown(readMessagesFixture('error-529.json'));
    expect(isGatewayError(overloaded) && overloaded.code).to.equal('GW_UPSTREAM_OVERLOADED');
    expect(isGatewayError(overloaded) && overloaded.message).to.equal('Overloaded');
    const limited = thrown(readMessagesFixture('error-429.json'));
    expect(isGatewayError(limited) && [limited.code, limited.status, limited.upstreamType]).to.deep.equal(['GW_UPSTREAM_ERROR', 429, 'rate_limit_error']);
  });

  it('answers GW_UPSTREAM_BAD_RESPONSE for a body without content', () => {
    for (const body of [null, 'text', { id: 'x' }, { content: 'no' }]) {
      const e = thrown(body);
      expect(isGatewayError(e) && e.code, JSON.stringify(body)).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    }
  });
});
