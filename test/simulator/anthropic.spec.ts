import Anthropic, { AuthenticationError, BadRequestError, InternalServerError, OverloadedError, RateLimitError } from '@anthropic-ai/sdk';
import { expect } from 'chai';
import { startSimulator, type Simulator } from '../../simulator';
import { parseSse, post, sseJson } from './raw-client';
import { rejection } from '../helpers/rejection';

const MODEL = 'claude-sonnet-4-6';
const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  input_schema: {
    type: 'object' as const,
    properties: { city: { type: 'string' }, days: { type: 'integer' }, unit: { type: 'string' } },
    required: ['city', 'days'],
  },
};

describe('simulator anthropic', () => {
  let sim: Simulator;
  let client: Anthropic;

  before(async () => {
    sim = await startSimulator();
    client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: sim.anthropicUrl, maxRetries: 0 });
  });
  after(() => sim.close());
  beforeEach(() => sim.reset());

  const headers = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' };
  const say = (text: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    model: MODEL,
    max_tokens: 64,
    messages: [{ role: 'user', content: text }],
    ...extra,
  });

  it('answers messages.create with the echo and deterministic usage', async () => {
    const message = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }] });
    expect(message.content).to.deep.equal([{ type: 'text', text: 'Echo: Say hello' }]);
    expect(message.stop_reason).to.equal('end_turn');
    expect(message.id).to.match(/^msg_01/);
    expect(message.usage.input_tokens).to.equal(3); // 'Say hello' = 9 chars
    expect(message.usage.output_tokens).to.equal(3);
    expect(sim.requests[0]).to.include({ vendor: 'anthropic', method: 'POST', path: '/v1/messages', aborted: false });
    expect(sim.requests[0].headers.authorization ?? sim.requests[0].headers['x-api-key']).to.match(/sk-ant-test$/);
  });

  it('streams text that the SDK reassembles, chunked as asked', async () => {
    const stream = client.messages.stream({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello [sim:chunks=5]' }] });
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const message = await stream.finalMessage();
    expect(deltas).to.have.length(5);
    expect(deltas.join('')).to.equal('Echo: Say hello');
    expect(message.content).to.deep.equal([{ type: 'text', text: 'Echo: Say hello' }]);
    expect(message.usage.output_tokens).to.equal(5);
    expect(message.stop_reason).to.equal('end_turn');
  });

  it('frames the stream like the API: event lines matching data.type, a ping, cumulative usage, message_stop last', async () => {
    const raw = await post(`${sim.anthropicUrl}/v1/messages`, say('hi', { stream: true }), headers);
    expect(raw.status).to.equal(200);
    expect(raw.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    const events = parseSse(raw.text);
    expect(events.map((e) => e.event)).to.deep.equal([
      'message_start', 'content_block_start', 'ping',
      'content_block_delta', 'content_block_delta', 'content_block_delta',
      'content_block_stop', 'message_delta', 'message_stop',
    ]);
    for (const e of events) expect((JSON.parse(e.data) as { type: string }).type).to.equal(e.event);
    expect(events[2].data).to.equal('{"type": "ping"}');
    const start = JSON.parse(events[0].data) as { message: { usage: { input_tokens: number; output_tokens: number } } };
    const delta = JSON.parse(events[7].data) as { usage: { input_tokens: number; output_tokens: number } };
    expect(start.message.usage).to.include({ input_tokens: 1, output_tokens: 1 });
    expect(delta.usage).to.include({ input_tokens: 1, output_tokens: 3 });
    expect(raw.text).not.to.include('[DONE]');
  });

  it('calls the first declared tool when asked, streamed as input_json_delta fragments', async () => {
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 64,
      tools: [WEATHER_TOOL],
      messages: [{ role: 'user', content: 'Weather? [sim:tool]' }],
    });
    const message = await stream.finalMessage();
    expect(message.stop_reason).to.equal('tool_use');
    expect(message.content).to.have.length(1);
    const block = message.content[0];
    if (block.type !== 'tool_use') throw new Error(`expected tool_use, got ${block.type}`);
    expect(block.name).to.equal('get_weather');
    expect(block.id).to.match(/^toolu_01/);
    expect(block.input).to.deep.equal({ city: 'x', days: 1 });

    const raw = await post(`${sim.anthropicUrl}/v1/messages`, say('w [sim:tool]', { stream: true, tools: [WEATHER_TOOL] }), headers);
    const partials = sseJson(raw.text)
      .map((e) => e.delta as { type?: string; partial_json?: string } | undefined)
      .filter((d) => d?.type === 'input_json_delta')
      .map((d) => d?.partial_json);
    expect(partials[0]).to.equal('');
    expect(partials.join('')).to.equal('{"city":"x","days":1}');
  });

  it('returns tool_use without streaming too', async () => {
    const message = await client.messages.create({ model: MODEL, max_tokens: 64, tools: [WEATHER_TOOL], messages: [{ role: 'user', content: '[sim:tool]' }] });
    expect(message.stop_reason).to.equal('tool_use');
    expect(message.content[0]).to.deep.include({ type: 'tool_use', name: 'get_weather', input: { city: 'x', days: 1 } });
  });

  it('answers a tool_result with "Tool said:"', async () => {
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 64,
      tools: [WEATHER_TOOL],
      messages: [
        { role: 'user', content: 'Weather? [sim:tool]' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01abc', name: 'get_weather', input: { city: 'x', days: 1 } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01abc', content: '{"temp_c":18}' }] },
      ],
    });
    expect(message.content).to.deep.equal([{ type: 'text', text: 'Tool said: {"temp_c":18}' }]);
  });

  it('streams a thinking block with its signature before the text', async () => {
    const stream = client.messages.stream({ model: MODEL, max_tokens: 2048, messages: [{ role: 'user', content: 'Think [sim:thinking]' }] });
    const message = await stream.finalMessage();
    expect(message.content.map((b) => b.type)).to.deep.equal(['thinking', 'text']);
    const thinking = message.content[0];
    if (thinking.type !== 'thinking') throw new Error('expected thinking first');
    expect(thinking.thinking).to.have.length.greaterThan(10);
    expect(thinking.signature).to.have.length.greaterThan(10);
    expect(message.content[1]).to.deep.include({ type: 'text', text: 'Echo: Think' });

    const plain = await client.messages.create({ model: MODEL, max_tokens: 2048, messages: [{ role: 'user', content: 'Think [sim:thinking]' }] });
    expect(plain.content.map((b) => b.type)).to.deep.equal(['thinking', 'text']);
  });

  it('raises the SDK typed errors for the error directives, with retry-after on 429', async () => {
    const ask = (status: number): Promise<unknown> =>
      rejection(client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: `x [sim:error=${status}]` }] }));
    const limited = await ask(429);
    expect(limited).to.be.instanceOf(RateLimitError);
    expect((limited as RateLimitError).headers?.get('retry-after')).to.equal('1');
    expect(await ask(529)).to.be.instanceOf(OverloadedError);
    expect(await ask(500)).to.be.instanceOf(InternalServerError);
    expect(await ask(400)).to.be.instanceOf(BadRequestError);
    expect(await ask(401)).to.be.instanceOf(AuthenticationError);

    const raw = await post(`${sim.anthropicUrl}/v1/messages`, say('x [sim:error=529]'), headers);
    expect(raw.status).to.equal(529);
    const body = JSON.parse(raw.text) as { type: string; error: { type: string; message: string }; request_id: string };
    expect(body.type).to.equal('error');
    expect(body.error).to.deep.equal({ type: 'overloaded_error', message: 'Overloaded' });
    expect(body.request_id).to.match(/^req_/);
  });

  it('ends a stream with an error event after one chunk on [sim:midstream-error]', async () => {
    const raw = await post(`${sim.anthropicUrl}/v1/messages`, say('boom [sim:midstream-error]', { stream: true }), headers);
    const events = parseSse(raw.text);
    expect(events.at(-1)?.event).to.equal('error');
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).to.deep.equal({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(events.filter((e) => e.event === 'content_block_delta')).to.have.length(1);
    expect(events.some((e) => e.event === 'message_stop')).to.equal(false);

    const stream = client.messages.stream({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'boom [sim:midstream-error]' }] });
    const error = await rejection(stream.finalMessage());
    expect(String(error)).to.include('Overloaded');
  });

  it('requires a key and anthropic-version', async () => {
    const noKey = await post(`${sim.anthropicUrl}/v1/messages`, say('hi'), { 'anthropic-version': '2023-06-01' });
    expect(noKey.status).to.equal(401);
    expect(JSON.parse(noKey.text)).to.deep.include({ type: 'error', error: { type: 'authentication_error', message: 'x-api-key header is required' } });
    const bearer = await post(`${sim.anthropicUrl}/v1/messages`, say('hi'), { authorization: 'Bearer oauth-token', 'anthropic-version': '2023-06-01' });
    expect(bearer.status).to.equal(200);
    const noVersion = await post(`${sim.anthropicUrl}/v1/messages`, say('hi'), { 'x-api-key': 'k' });
    expect(noVersion.status).to.equal(400);
    const missing = await post(`${sim.anthropicUrl}/v1/messages`, { model: MODEL, messages: [] }, headers);
    expect(JSON.parse(missing.text).error).to.deep.equal({ type: 'invalid_request_error', message: 'max_tokens: Field required' });
  });

  it('refuses keys that contain banned, limited or quota', async () => {
    const banned = new Anthropic({ apiKey: 'sk-ant-banned-1', baseURL: sim.anthropicUrl, maxRetries: 0 });
    const error = await rejection(banned.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }));
    expect(error).to.be.instanceOf(AuthenticationError);
    expect(String(error)).to.include('suspended');
    for (const key of ['sk-ant-limited-1', 'sk-ant-quota-1']) {
      const raw = await post(`${sim.anthropicUrl}/v1/messages`, say('hi'), { ...headers, 'x-api-key': key });
      expect(raw.status).to.equal(429);
      expect(JSON.parse(raw.text).error.type).to.equal('rate_limit_error');
    }
  });

  it('counts tokens and lists models in the Anthropic shapes', async () => {
    const count = await client.messages.countTokens({ model: MODEL, system: 'abcd', messages: [{ role: 'user', content: 'efgh' }] });
    expect(count.input_tokens).to.equal(3); // 'abcd\nefgh' = 9 chars
    const models = await client.models.list();
    const ids = models.data.map((m) => m.id);
    expect(ids).to.include(MODEL);
    expect(models.data[0].type).to.equal('model');
    const raw = await fetch(`${sim.anthropicUrl}/v1/models`, { headers });
    expect(await raw.json()).to.include.keys('data', 'has_more', 'first_id', 'last_id');
  });

  it('hands out the same ids after reset()', async () => {
    const first = await client.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'a' }] });
    sim.reset();
    const second = await client.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'a' }] });
    expect(second.id).to.equal(first.id);
  });
});
