import { expect } from 'chai';
import OpenAI, { APIError, AuthenticationError, BadRequestError, InternalServerError, RateLimitError } from 'openai';
import type { ChatCompletionChunk, ChatCompletionTool } from 'openai/resources/chat/completions';
import { startSimulator, type Simulator } from '../../simulator';
import { parseSse, post, sseJson } from './raw-client';
import { rejection } from '../helpers/rejection';

const MODEL = 'gpt-4.1-mini';
const TOOLS: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'lookup',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' }, limit: { type: 'number' }, note: { type: 'string' } },
        required: ['query', 'limit'],
      },
    },
  },
];

describe('simulator openai chat completions', () => {
  let sim: Simulator;
  let client: OpenAI;
  const auth = { authorization: 'Bearer sk-test' };

  before(async () => {
    sim = await startSimulator();
    client = new OpenAI({ apiKey: 'sk-test', baseURL: `${sim.openaiUrl}/v1`, maxRetries: 0 });
  });
  after(() => sim.close());
  beforeEach(() => sim.reset());

  it('answers a non-streaming completion with the echo and usage', async () => {
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'developer', content: 'be brief' }, { role: 'user', content: [{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'there' }] }],
    });
    expect(completion.id).to.match(/^chatcmpl-/);
    expect(completion.model).to.equal(MODEL);
    expect(completion.choices[0].message.content).to.equal('Echo: Hello there');
    expect(completion.choices[0].finish_reason).to.equal('stop');
    expect(completion.usage).to.deep.include({ prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 }); // 'be brief\nHello there' = 20 chars
    expect(sim.requests[0]).to.deep.include({ vendor: 'openai', path: '/v1/chat/completions' });
    expect(sim.requests[0].body).to.deep.include({ model: MODEL });
  });

  it('streams chunks and honours include_usage with a choices: [] chunk before [DONE]', async () => {
    const stream = await client.chat.completions.create({
      model: MODEL,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'stream me [sim:chunks=4]' }],
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).to.equal('Echo: stream me');
    expect(chunks.filter((c) => c.choices[0]?.delta.content)).to.have.length(4);
    const last = chunks.at(-1);
    expect(last?.choices).to.deep.equal([]);
    expect(last?.usage).to.deep.include({ completion_tokens: 4 });
    expect(chunks.at(-2)?.choices[0].finish_reason).to.equal('stop');
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).to.equal(true);

    const raw = await post(`${sim.openaiUrl}/v1/chat/completions`, { model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] }, auth);
    const events = parseSse(raw.text);
    expect(events.at(-1)?.data).to.equal('[DONE]');
    expect(events.every((e) => e.event === undefined)).to.equal(true);
    expect(sseJson(raw.text).every((c) => !('usage' in c))).to.equal(true);
  });

  it('reassembles a streamed tool call with the stream helper', async () => {
    const runner = client.chat.completions.stream({ model: MODEL, tools: TOOLS, messages: [{ role: 'user', content: 'find [sim:tool]' }] });
    const completion = await runner.finalChatCompletion();
    const choice = completion.choices[0];
    expect(choice.finish_reason).to.equal('tool_calls');
    const call = choice.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function tool call');
    expect(call.id).to.match(/^call_[A-Za-z0-9]{24}$/);
    expect(call.function.name).to.equal('lookup');
    expect(JSON.parse(call.function.arguments)).to.deep.equal({ query: 'x', limit: 1 });

    const raw = await post(`${sim.openaiUrl}/v1/chat/completions`, { model: MODEL, stream: true, tools: TOOLS, messages: [{ role: 'user', content: '[sim:tool]' }] }, auth);
    const fragments = sseJson(raw.text).flatMap((c) => {
      const choices = c.choices as { delta: { tool_calls?: { function: { arguments?: string } }[] } }[];
      return choices.flatMap((ch) => ch.delta.tool_calls ?? []).map((t) => t.function.arguments ?? '');
    });
    expect(fragments.filter((f) => f !== '').length).to.be.greaterThan(1);
  });

  it('returns tool_calls without streaming', async () => {
    const completion = await client.chat.completions.create({ model: MODEL, tools: TOOLS, messages: [{ role: 'user', content: '[sim:tool]' }] });
    expect(completion.choices[0].message.content).to.equal(null);
    const call = completion.choices[0].message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function tool call');
    expect(call.function.arguments).to.equal('{"query":"x","limit":1}');
  });

  it('answers role tool messages with "Tool said:"', async () => {
    const completion = await client.chat.completions.create({
      model: MODEL,
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'find [sim:tool]' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'found it' },
      ],
    });
    expect(completion.choices[0].message.content).to.equal('Tool said: found it');
  });

  it('sends reasoning_content deltas before the content on [sim:thinking]', async () => {
    const raw = await post(`${sim.openaiUrl}/v1/chat/completions`, { model: MODEL, stream: true, messages: [{ role: 'user', content: 'hm [sim:thinking]' }] }, auth);
    const deltas = sseJson(raw.text).map((c) => (c.choices as { delta: Record<string, unknown> }[])[0].delta);
    const firstReasoning = deltas.findIndex((d) => typeof d.reasoning_content === 'string');
    const firstContent = deltas.findIndex((d) => typeof d.content === 'string' && d.content !== '');
    expect(firstReasoning).to.be.greaterThan(-1);
    expect(firstReasoning).to.be.lessThan(firstContent);

    const completion = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hm [sim:thinking]' }] });
    expect(completion.choices[0].message).to.have.property('reasoning_content').that.is.a('string');
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).to.equal(2);
  });

  it('breaks off a stream with a data-only error and no [DONE] on [sim:midstream-error]', async () => {
    const raw = await post(`${sim.openaiUrl}/v1/chat/completions`, { model: MODEL, stream: true, messages: [{ role: 'user', content: '[sim:midstream-error]' }] }, auth);
    const events = parseSse(raw.text);
    expect(events.some((e) => e.data === '[DONE]')).to.equal(false);
    expect(JSON.parse(events.at(-1)?.data ?? '{}').error).to.include({ type: 'server_error' });

    const stream = await client.chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'x [sim:midstream-error]' }] });
    const seen: string[] = [];
    const error = await rejection((async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
    })());
    expect(error).to.be.instanceOf(APIError);
    expect(seen.join('')).to.equal('Ech'); // first of three chunks of 'Echo: x'
  });

  it('raises the SDK typed errors for the error directives', async () => {
    const ask = (status: number): Promise<unknown> =>
      rejection(client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: `x [sim:error=${status}]` }] }));
    const limited = await ask(429);
    expect(limited).to.be.instanceOf(RateLimitError);
    expect((limited as RateLimitError).headers?.get('retry-after')).to.equal('1');
    expect((limited as RateLimitError).code).to.equal('rate_limit_exceeded');
    expect(await ask(500)).to.be.instanceOf(InternalServerError);
    expect(await ask(400)).to.be.instanceOf(BadRequestError);
    const unauthorized = await ask(401);
    expect(unauthorized).to.be.instanceOf(AuthenticationError);
    expect((unauthorized as AuthenticationError).code).to.equal('invalid_api_key');

    const raw = await post(`${sim.openaiUrl}/v1/chat/completions`, { model: MODEL, messages: [{ role: 'user', content: '[sim:error=503]' }] }, auth);
    expect(raw.status).to.equal(503);
    expect(Object.keys(JSON.parse(raw.text).error)).to.deep.equal(['message', 'type', 'param', 'code']);
  });
});
