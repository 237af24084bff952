import { expect } from 'chai';
import { createChatCompletionsStreamDecoder } from '../../../../core/codecs/chat-completions/create-chat-completions-stream-decoder';
import { createChatCompletionsStreamEncoder } from '../../../../core/codecs/chat-completions/create-chat-completions-stream-encoder';
import { GatewayError } from '../../../../core/errors/gateway-error';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';
import { fixtureText } from '../../../helpers/fixtures';
import { decodeSse, encodeEvents, payloads } from '../openai-codec-kit';

function request(streamUsage: boolean): UnifiedRequest {
  return { model: 'client-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true, streamUsage };
}

const USAGE = { inputTokens: 10, outputTokens: 4, totalTokens: 14, cachedInputTokens: 2, reasoningTokens: 1 };

const EVENTS: UnifiedStreamEvent[] = [
  { type: 'start', id: 'msg_01XYZ', model: 'claude-x', created: 1700000000 },
  { type: 'reasoning_delta', text: 'hmm' },
  { type: 'reasoning_signature', signature: 'sig' },
  { type: 'text_delta', text: 'Hi' },
  { type: 'tool_call_start', index: 0, id: 'toolu_1', name: 'f' },
  { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a"' },
  { type: 'tool_call_delta', index: 0, argumentsDelta: ':1}' },
  { type: 'usage', usage: { inputTokens: 10 } },
  { type: 'finish', finishReason: 'tool_calls', usage: USAGE },
];

describe('createChatCompletionsStreamEncoder', () => {
  it('emits the spec §6 sequence: role chunk, deltas with finish_reason null, empty-delta finish chunk, usage chunk, [DONE]', () => {
    const wire = encodeEvents(createChatCompletionsStreamEncoder(request(true)), EVENTS);
    expect(wire.every((e) => e.event === undefined)).to.equal(true);
    expect(wire.at(-1)).to.deep.equal({ data: '[DONE]' });
    const chunks = payloads(wire);
    expect(chunks.map((c) => (c.choices as Array<{ delta: unknown }>)[0]?.delta ?? null)).to.deep.equal([
      { role: 'assistant', content: '', refusal: null },
      { reasoning_content: 'hmm' },
      { content: 'Hi' },
      { tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] },
      { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] },
      {},
      null,
    ]);
    const finishReasons = chunks.slice(0, -1).map((c) => (c.choices as Array<{ finish_reason: unknown }>)[0].finish_reason);
    expect(finishReasons).to.deep.equal([null, null, null, null, null, null, 'tool_calls']);
    // Every chunk of one response shares id, created and model.
    expect(new Set(chunks.map((c) => `${c.id}|${c.created}|${c.model}|${c.object}`))).to.deep.equal(new Set(['chatcmpl-01XYZ|1700000000|claude-x|chat.completion.chunk']));
    // usage: null on every chunk but the usage chunk, which has choices: [].
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).to.equal(true);
    expect(chunks.at(-1)).to.deep.include({ choices: [] });
    expect(chunks.at(-1)?.usage).to.deep.equal({
      prompt_tokens: 10, completion_tokens: 4, total_tokens: 14,
      prompt_tokens_details: { cached_tokens: 2 }, completion_tokens_details: { reasoning_tokens: 1 },
    });
  });

  it('sends no usage chunk and no usage field when the client did not ask for include_usage', () => {
    const chunks = payloads(encodeEvents(createChatCompletionsStreamEncoder(request(false)), EVENTS));
    expect(chunks.every((c) => !('usage' in c))).to.equal(true);
    expect((chunks.at(-1)?.choices as unknown[]).length).to.equal(1);
  });

  it('re-encodes the stream-basic fixture to the same text, finish and usage', () => {
    const unified = decodeSse(createChatCompletionsStreamDecoder(), fixtureText('openai-chat/stream-basic.sse'));
    const chunks = payloads(encodeEvents(createChatCompletionsStreamEncoder(request(true)), unified));
    const text = chunks.map((c) => ((c.choices as Array<{ delta: { content?: string } }>)[0]?.delta.content ?? '')).join('');
    expect(text).to.equal('Hello, nice to meet you!');
    expect(chunks[0].id).to.equal('chatcmpl-CGk7sV9pQ2wRt5yUi8oPa1sDf4gHj');
    expect(chunks.at(-1)?.usage).to.deep.include({ prompt_tokens: 24, completion_tokens: 8, total_tokens: 32 });
  });

  it('renders a generated image as a markdown content delta', () => {
    const chunks = payloads(encodeEvents(createChatCompletionsStreamEncoder(request(false)), [EVENTS[0], { type: 'media', mediaType: 'image/png', data: 'AAA' }]));
    expect((chunks[1].choices as Array<{ delta: unknown }>)[0].delta).to.deep.equal({ content: '![image](data:image/png;base64,AAA)' });
  });

  it('ends with the OpenAI error chunk and no [DONE] on error, in OpenAI\'s vocabulary whatever the upstream said', () => {
    const encoder = createChatCompletionsStreamEncoder(request(true));
    const wire = encodeEvents(encoder, [EVENTS[0], { type: 'text_delta', text: 'x' }, { type: 'error', error: new GatewayError('GW_UPSTREAM_OVERLOADED', 'Overloaded', { upstreamType: 'overloaded_error' }) }]);
    expect(wire.at(-1)).to.deep.equal({ data: JSON.stringify({ error: { message: 'Overloaded', type: 'service_unavailable_error', param: null, code: 'gw_upstream_overloaded' } }) });
    expect(wire.some((e) => e.data === '[DONE]')).to.equal(false);
    expect(encoder.push({ type: 'text_delta', text: 'late' })).to.deep.equal([]);
  });
});
