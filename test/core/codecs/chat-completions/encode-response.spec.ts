import { expect } from 'chai';
import { decodeChatCompletionsResponse } from '../../../../core/codecs/chat-completions/decode-response';
import { encodeChatCompletionsResponse } from '../../../../core/codecs/chat-completions/encode-response';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import type { UnifiedResponse } from '../../../../core/unified/unified-response';
import { fixtureJson } from '../../../helpers/fixtures';

const request: UnifiedRequest = { model: 'client-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: false };

function response(extra: Partial<UnifiedResponse>): UnifiedResponse {
  return { id: 'msg_01abc', model: 'claude-x', created: 1700000000, content: [], finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, ...extra };
}

describe('encodeChatCompletionsResponse', () => {
  it('round-trips response-basic (the fields the gateway produces)', () => {
    const fixture = fixtureJson<Record<string, unknown>>('openai-chat/response-basic.json');
    const body = encodeChatCompletionsResponse(decodeChatCompletionsResponse(fixture), request);
    expect(body).to.deep.equal({
      id: fixture.id,
      object: 'chat.completion',
      created: fixture.created,
      model: fixture.model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello, nice to meet you!', refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 24, completion_tokens: 8, total_tokens: 32, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
    });
  });

  it('synthesizes a chatcmpl- id from another format\'s id, deterministically', () => {
    expect(encodeChatCompletionsResponse(response({}), request).id).to.equal('chatcmpl-01abc');
    expect(encodeChatCompletionsResponse(response({}), request).id).to.equal(encodeChatCompletionsResponse(response({}), request).id);
  });

  it('puts reasoning in reasoning_content, tool calls in tool_calls with content null, and maps the finish reason', () => {
    const body = encodeChatCompletionsResponse(
      response({
        content: [
          { type: 'reasoning', text: 'let me think', signature: 'sig', provider: 'messages' },
          { type: 'tool_call', id: 'toolu_1', name: 'f', arguments: '{"a":1}' },
        ],
        finishReason: 'tool_calls',
        usage: { inputTokens: 100, outputTokens: 40, totalTokens: 140, cachedInputTokens: 60, reasoningTokens: 30 },
      }),
      request,
    );
    expect(body.choices[0].message).to.deep.equal({
      role: 'assistant',
      content: null,
      reasoning_content: 'let me think',
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
      refusal: null,
      annotations: [],
    });
    expect(body.choices[0].finish_reason).to.equal('tool_calls');
    expect(body.usage).to.deep.equal({
      prompt_tokens: 100, completion_tokens: 40, total_tokens: 140,
      prompt_tokens_details: { cached_tokens: 60 }, completion_tokens_details: { reasoning_tokens: 30 },
    });
  });

  it('renders generated images as markdown data URIs in content', () => {
    const body = encodeChatCompletionsResponse(
      response({ content: [{ type: 'text', text: 'Here: ' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'PNGDATA' } }] }),
      request,
    );
    expect(body.choices[0].message.content).to.equal('Here: ![image](data:image/png;base64,PNGDATA)');
  });

  it('maps length, content_filter and other to the chat values', () => {
    expect(encodeChatCompletionsResponse(response({ finishReason: 'length' }), request).choices[0].finish_reason).to.equal('length');
    expect(encodeChatCompletionsResponse(response({ finishReason: 'content_filter' }), request).choices[0].finish_reason).to.equal('content_filter');
    expect(encodeChatCompletionsResponse(response({ finishReason: 'other' }), request).choices[0].finish_reason).to.equal('stop');
    expect(encodeChatCompletionsResponse(response({ model: '' }), request).model).to.equal('client-model');
  });

  it('gives a refusal as message.refusal with null content, as the API does', () => {
    const body = encodeChatCompletionsResponse(
      { id: 'x', model: 'm', created: 1, content: [{ type: 'text', text: "I can't help with that.", refusal: true }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
      { model: 'm', system: [], stream: false },
    );
    expect(body.choices[0].message).to.include({ content: null, refusal: "I can't help with that." });
  });
});
