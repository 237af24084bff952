import { expect } from 'chai';
import { APIError } from 'openai';
import { chatCompletionsCodec } from '../../../../core/codecs/chat-completions';
import { responsesCodec } from '../../../../core/codecs/responses';
import { GatewayError } from '../../../../core/errors/gateway-error';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';
import { fixtureText } from '../../../helpers/fixtures';
import { decodeSse, encodeEvents, mockOpenAi, toSseBody } from '../openai-codec-kit';

const MESSAGES = [{ role: 'user' as const, content: 'What is the weather in Paris?' }];
const TOOLS = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];

function unifiedRequest(stream: boolean, streamUsage = false): UnifiedRequest {
  return chatCompletionsCodec.decodeRequest({ model: 'gpt-x', messages: MESSAGES, tools: TOOLS, stream, stream_options: stream ? { include_usage: streamUsage } : undefined });
}

const STREAM: UnifiedStreamEvent[] = [
  { type: 'start', id: 'msg_01ABC', model: 'claude-sonnet-4-6', created: 1700000000 },
  { type: 'reasoning_delta', text: 'The user wants ' },
  { type: 'reasoning_delta', text: 'weather.' },
  { type: 'text_delta', text: 'Let me ' },
  { type: 'text_delta', text: 'check.' },
  { type: 'tool_call_start', index: 0, id: 'toolu_01', name: 'get_weather' },
  { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
  { type: 'tool_call_delta', index: 0, argumentsDelta: '"Paris"}' },
  { type: 'tool_call_start', index: 1, id: 'toolu_02', name: 'get_weather' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: '{"city":"Lyon"}' },
  { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 50, outputTokens: 20, totalTokens: 70, cachedInputTokens: 10, reasoningTokens: 5 } },
];

describe('chatCompletionsCodec through the official openai SDK', () => {
  it('the SDK\'s own request body decodes', async () => {
    const { client, requests } = mockOpenAi(chatCompletionsCodec.encodeResponse(
      { id: 'x', model: 'm', created: 1, content: [{ type: 'text', text: 'ok' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
      unifiedRequest(false),
    ));
    await client.chat.completions.create({ model: 'gpt-x', messages: MESSAGES, tools: TOOLS, max_completion_tokens: 10 });
    const decoded = chatCompletionsCodec.decodeRequest(requests[0]);
    expect(decoded.messages[0].content).to.deep.equal([{ type: 'text', text: 'What is the weather in Paris?' }]);
    expect(decoded.tools?.[0].name).to.equal('get_weather');
    expect(decoded.maxTokens).to.equal(10);
  });

  it('create() non-stream: text, reasoning_content, tool calls and usage', async () => {
    const body = chatCompletionsCodec.encodeResponse(
      {
        id: 'msg_01ABC',
        model: 'claude-sonnet-4-6',
        created: 1700000000,
        content: [
          { type: 'reasoning', text: 'thinking', provider: 'messages', signature: 'sig' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_call', id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
        ],
        finishReason: 'tool_calls',
        usage: { inputTokens: 50, outputTokens: 20, totalTokens: 70, cachedInputTokens: 10, reasoningTokens: 5 },
      },
      unifiedRequest(false),
    );
    const { client } = mockOpenAi(body);
    const completion = await client.chat.completions.create({ model: 'gpt-x', messages: MESSAGES, tools: TOOLS });
    const [choice] = completion.choices;
    expect(completion.id).to.equal('chatcmpl-01ABC');
    expect(choice.finish_reason).to.equal('tool_calls');
    expect(choice.message.content).to.equal('Checking.');
    expect(choice.message).to.have.property('reasoning_content', 'thinking');
    const call = choice.message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function).to.deep.equal({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(completion.usage).to.deep.include({ prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 });
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).to.equal(10);
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).to.equal(5);
  });

  it('create({stream: true}): chunks rebuild text, reasoning, tool calls and the usage chunk', async () => {
    const request = unifiedRequest(true, true);
    const sse = toSseBody(encodeEvents(chatCompletionsCodec.createStreamEncoder(request), STREAM));
    const { client } = mockOpenAi(sse, { sse: true });
    const stream = await client.chat.completions.create({ model: 'gpt-x', messages: MESSAGES, tools: TOOLS, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let reasoning = '';
    const args: string[] = [];
    const finishReasons: string[] = [];
    let usage: unknown;
    const ids = new Set<string>();
    for await (const chunk of stream) {
      ids.add(chunk.id);
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      text += choice.delta.content ?? '';
      if ('reasoning_content' in choice.delta && typeof choice.delta.reasoning_content === 'string') reasoning += choice.delta.reasoning_content;
      for (const call of choice.delta.tool_calls ?? []) args[call.index] = (args[call.index] ?? '') + (call.function?.arguments ?? '');
      if (choice.finish_reason) finishReasons.push(choice.finish_reason);
    }
    expect(ids.size).to.equal(1);
    expect(text).to.equal('Let me check.');
    expect(reasoning).to.equal('The user wants weather.');
    expect(args).to.deep.equal(['{"city":"Paris"}', '{"city":"Lyon"}']);
    expect(finishReasons).to.deep.equal(['tool_calls']);
    expect(usage).to.deep.include({ prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 });
  });

  it('chat.completions.stream().finalChatCompletion() rebuilds the tool calls with their arguments', async () => {
    const request = unifiedRequest(true, false);
    const sse = toSseBody(encodeEvents(chatCompletionsCodec.createStreamEncoder(request), STREAM));
    const { client } = mockOpenAi(sse, { sse: true });
    const final = await client.chat.completions.stream({ model: 'gpt-x', messages: MESSAGES, tools: TOOLS }).finalChatCompletion();
    const message = final.choices[0].message;
    expect(message.content).to.equal('Let me check.');
    expect(final.choices[0].finish_reason).to.equal('tool_calls');
    expect(message.tool_calls?.map((c) => (c.type === 'function' ? [c.id, c.function.name, c.function.arguments] : []))).to.deep.equal([
      ['toolu_01', 'get_weather', '{"city":"Paris"}'],
      ['toolu_02', 'get_weather', '{"city":"Lyon"}'],
    ]);
  });

  it('a mid-stream error makes the SDK throw an APIError with the message', async () => {
    const request = unifiedRequest(true, false);
    const events: UnifiedStreamEvent[] = [STREAM[0], STREAM[3], { type: 'error', error: new GatewayError('GW_UPSTREAM_ERROR', 'upstream exploded', { status: 500 }) }];
    const { client } = mockOpenAi(toSseBody(encodeEvents(chatCompletionsCodec.createStreamEncoder(request), events)), { sse: true });
    const stream = await client.chat.completions.create({ model: 'gpt-x', messages: MESSAGES, stream: true });
    let text = '';
    let caught: unknown;
    try {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    } catch (e) {
      caught = e;
    }
    expect(text).to.equal('Let me ');
    expect(caught).to.be.instanceOf(APIError);
    expect(caught instanceof APIError && caught.message).to.contain('upstream exploded');
  });

  it('encodeError bodies raise the SDK\'s typed errors', async () => {
    const { status, body } = chatCompletionsCodec.encodeError(new GatewayError('GW_INVALID_REQUEST', 'messages[0].role: must be one of "user"', { param: 'messages[0].role' }));
    const { client } = mockOpenAi(body, { status });
    try {
      await client.chat.completions.create({ model: 'gpt-x', messages: MESSAGES });
      expect.fail('expected an error');
    } catch (e) {
      expect(e).to.be.instanceOf(APIError);
      expect(e instanceof APIError && e.status).to.equal(400);
      expect(e instanceof APIError && e.param).to.equal('messages[0].role');
    }
  });

  it('a chat request reaches a Responses upstream, and the Responses stream comes back as chat chunks the SDK rebuilds', async () => {
    const request = chatCompletionsCodec.decodeRequest({
      model: 'gpt-x',
      messages: [{ role: 'system', content: 'Be brief.' }, ...MESSAGES],
      tools: TOOLS,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 100,
    });
    const upstream = responsesCodec.encodeRequest(request).value;
    expect(upstream).to.deep.include({ instructions: 'Be brief.', max_output_tokens: 100, stream: true, store: false });
    expect(upstream.input).to.deep.equal([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is the weather in Paris?' }] }]);
    expect(upstream.tools).to.deep.equal([{ type: 'function', name: 'get_weather', parameters: TOOLS[0].function.parameters, strict: false }]);

    const unified = decodeSse(responsesCodec.createStreamDecoder(), fixtureText('openai-responses/stream-function-call.sse'), 23);
    const { client } = mockOpenAi(toSseBody(encodeEvents(chatCompletionsCodec.createStreamEncoder(request), unified)), { sse: true });
    const final = await client.chat.completions.stream({ model: 'gpt-x', messages: MESSAGES, tools: TOOLS, stream_options: { include_usage: true } }).finalChatCompletion();
    const call = final.choices[0].message.tool_calls?.[0];
    expect(call?.type === 'function' && [call.id, call.function.name, call.function.arguments]).to.deep.equal(['call_Qm4nZ8xV2bT6yH0kL3pR7sWd', 'get_weather', '{"city":"Paris","unit":"celsius"}']);
    expect(final.choices[0].finish_reason).to.equal('tool_calls');
    expect(final.usage).to.deep.include({ prompt_tokens: 62, completion_tokens: 19, total_tokens: 81 });
  });
});
