import { expect } from 'chai';
import { RateLimitError } from 'openai';
import { chatCompletionsCodec } from '../../../../core/codecs/chat-completions';
import { responsesCodec } from '../../../../core/codecs/responses';
import { GatewayError } from '../../../../core/errors/gateway-error';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';
import { fixtureText } from '../../../helpers/fixtures';
import { decodeSse, encodeEvents, mockOpenAi, toSseBody } from '../openai-codec-kit';

const TOOLS = [{ type: 'function' as const, name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }];

function unifiedRequest(stream: boolean): UnifiedRequest {
  return responsesCodec.decodeRequest({ model: 'gpt-x', input: 'Weather in Paris?', tools: TOOLS, reasoning: { effort: 'low', summary: 'auto' }, stream });
}

const STREAM: UnifiedStreamEvent[] = [
  { type: 'start', id: 'msg_01ABC', model: 'claude-sonnet-4-6', created: 1700000000 },
  { type: 'reasoning_delta', text: 'User wants ' },
  { type: 'reasoning_delta', text: 'weather.' },
  { type: 'text_delta', text: 'Let me ' },
  { type: 'text_delta', text: 'check.' },
  { type: 'tool_call_start', index: 0, id: 'toolu_01', name: 'get_weather' },
  { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
  { type: 'tool_call_delta', index: 0, argumentsDelta: '"Paris"}' },
  { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 50, outputTokens: 20, totalTokens: 70, cachedInputTokens: 10, reasoningTokens: 5 } },
];

describe('responsesCodec through the official openai SDK', () => {
  it('the SDK\'s own request body decodes', async () => {
    const request = unifiedRequest(false);
    const { client, requests } = mockOpenAi(responsesCodec.encodeResponse(
      { id: 'x', model: 'm', created: 1, content: [{ type: 'text', text: 'ok' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
      request,
    ));
    await client.responses.create({
      model: 'gpt-x',
      instructions: 'Be brief.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      tools: TOOLS,
      reasoning: { effort: 'medium', summary: 'auto' },
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    const decoded = responsesCodec.decodeRequest(requests[0]);
    expect(decoded.system).to.deep.equal(['Be brief.']);
    expect(decoded.messages).to.deep.equal([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    expect(decoded.tools?.[0].name).to.equal('get_weather');
    expect(decoded.reasoning).to.deep.equal({ enabled: true, effort: 'medium', includeThoughts: true });
  });

  it('create() non-stream: output_text, the function call and usage', async () => {
    const body = responsesCodec.encodeResponse(
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
    const response = await client.responses.create({ model: 'gpt-x', input: 'Weather in Paris?', tools: TOOLS });
    expect(response.id).to.equal('resp_01ABC');
    expect(response.status).to.equal('completed');
    expect(response.output_text).to.equal('Checking.');
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' && [call.call_id, call.name, call.arguments]).to.deep.equal(['toolu_01', 'get_weather', '{"city":"Paris"}']);
    const reasoning = response.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.type === 'reasoning' && reasoning.summary[0].text).to.equal('thinking');
    expect(response.usage).to.deep.include({ input_tokens: 50, output_tokens: 20, total_tokens: 70 });
    expect(response.usage?.input_tokens_details.cached_tokens).to.equal(10);
    expect(response.usage?.output_tokens_details.reasoning_tokens).to.equal(5);
  });

  it('create({stream: true}): the SDK accepts every event; text deltas rebuild the answer', async () => {
    const sse = toSseBody(encodeEvents(responsesCodec.createStreamEncoder(unifiedRequest(true)), STREAM));
    const { client } = mockOpenAi(sse, { sse: true });
    const stream = await client.responses.create({ model: 'gpt-x', input: 'Weather in Paris?', tools: TOOLS, stream: true });
    let text = '';
    let args = '';
    let completed: unknown;
    const sequence: number[] = [];
    for await (const event of stream) {
      sequence.push(event.sequence_number);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.function_call_arguments.delta') args += event.delta;
      if (event.type === 'response.completed') completed = event.response.usage;
    }
    expect(text).to.equal('Let me check.');
    expect(args).to.equal('{"city":"Paris"}');
    expect(sequence).to.deep.equal(sequence.map((_, i) => i));
    expect(completed).to.deep.include({ input_tokens: 50, output_tokens: 20, total_tokens: 70 });
  });

  it('responses.stream().finalResponse() rebuilds output text, reasoning summary, the function call and usage', async () => {
    const sse = toSseBody(encodeEvents(responsesCodec.createStreamEncoder(unifiedRequest(true)), STREAM));
    const { client } = mockOpenAi(sse, { sse: true });
    const runner = client.responses.stream({ model: 'gpt-x', input: 'Weather in Paris?', tools: TOOLS });
    const deltas: string[] = [];
    runner.on('response.output_text.delta', (event) => deltas.push(event.snapshot));
    const final = await runner.finalResponse();
    expect(final.output_text).to.equal('Let me check.');
    expect(deltas).to.deep.equal(['Let me ', 'Let me check.']);
    expect(final.output.map((item) => item.type)).to.deep.equal(['reasoning', 'message', 'function_call']);
    const reasoning = final.output[0];
    expect(reasoning.type === 'reasoning' && reasoning.summary.map((s) => s.text)).to.deep.equal(['User wants weather.']);
    const call = final.output[2];
    expect(call.type === 'function_call' && [call.call_id, call.name, call.arguments]).to.deep.equal(['toolu_01', 'get_weather', '{"city":"Paris"}']);
    expect(final.usage?.total_tokens).to.equal(70);
    expect(final.status).to.equal('completed');
  });

  it('a mid-stream error reaches the SDK as an error event with code and message', async () => {
    const events: UnifiedStreamEvent[] = [STREAM[0], STREAM[3], { type: 'error', error: new GatewayError('GW_UPSTREAM_OVERLOADED', 'Overloaded', { upstreamType: 'overloaded_error' }) }];
    const { client } = mockOpenAi(toSseBody(encodeEvents(responsesCodec.createStreamEncoder(unifiedRequest(true)), events)), { sse: true });
    const stream = await client.responses.create({ model: 'gpt-x', input: 'x', stream: true });
    const seen: Array<{ type: string; code?: string | null; message?: string }> = [];
    for await (const event of stream) {
      if (event.type === 'error') seen.push({ type: event.type, code: event.code, message: event.message });
    }
    expect(seen).to.deep.equal([{ type: 'error', code: 'service_unavailable_error', message: 'Overloaded' }]);
  });

  it('encodeError bodies raise the SDK\'s typed errors', async () => {
    const { status, body } = responsesCodec.encodeError(new GatewayError('GW_RATE_LIMITED', 'every credential is rate limited'));
    const { client } = mockOpenAi(body, { status });
    try {
      await client.responses.create({ model: 'gpt-x', input: 'x' });
      expect.fail('expected an error');
    } catch (e) {
      expect(e).to.be.instanceOf(RateLimitError);
    }
  });

  it('a Codex-style request reaches a chat upstream, and the chat stream comes back as a Responses stream the SDK rebuilds', async () => {
    const request = responsesCodec.decodeRequest({
      model: 'gpt-x',
      instructions: 'You are Codex.',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      tools: [
        { type: 'function', name: 'shell', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } } },
        { type: 'namespace', name: 'collaboration', tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object' } }] },
        { type: 'web_search' },
      ],
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'weather?' }] },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'OPENAI-ONLY' },
        { type: 'function_call', call_id: 'call_a', name: 'shell', arguments: '{"command":["ls"]}' },
        { type: 'function_call_output', call_id: 'call_a', output: 'README.md' },
      ],
    });
    const upstream = chatCompletionsCodec.encodeRequest(request).value;
    expect(upstream.messages).to.deep.equal([
      { role: 'system', content: 'You are Codex.' },
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } }] },
      { role: 'tool', tool_call_id: 'call_a', content: 'README.md' },
    ]);
    expect((upstream.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).to.deep.equal(['shell', 'spawn_agent']);
    expect(upstream).not.to.have.property('include');
    expect(upstream.stream_options).to.deep.equal({ include_usage: true });

    const unified = decodeSse(chatCompletionsCodec.createStreamDecoder(), fixtureText('openai-chat/stream-tool-calls.sse'), 17);
    const { client } = mockOpenAi(toSseBody(encodeEvents(responsesCodec.createStreamEncoder(request), unified)), { sse: true });
    const final = await client.responses.stream({ model: 'gpt-x', input: 'weather?' }).finalResponse();
    expect(final.id).to.equal('resp_CGk8bQ1wE2rT3yU4iO5pA6sD7fG8h');
    expect(final.output.map((item) => (item.type === 'function_call' ? [item.call_id, item.arguments] : item.type))).to.deep.equal([
      ['call_Xy8mQ2vR6tLp0sWn4kJd9aBc', '{"city":"Paris","unit":"celsius"}'],
      ['call_Hf3nK7pQ1zVx5mRt8yLw2eGu', '{"city":"Tokyo","unit":"celsius"}'],
    ]);
    expect(final.status).to.equal('completed');
  });
});
