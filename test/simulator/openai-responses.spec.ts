import { expect } from 'chai';
import OpenAI, { RateLimitError } from 'openai';
import type { FunctionTool, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { startSimulator, type Simulator } from '../../simulator';
import { parseSse, post, sseJson } from './raw-client';
import { rejection } from '../helpers/rejection';

const MODEL = 'gpt-4.1-mini';
const TOOLS: FunctionTool[] = [
  {
    type: 'function',
    name: 'get_weather',
    strict: true,
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string' } },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
  },
];

describe('simulator openai responses', () => {
  let sim: Simulator;
  let client: OpenAI;
  const auth = { authorization: 'Bearer sk-test' };
  const userInput = (text: string) => [{ type: 'message' as const, role: 'user' as const, content: [{ type: 'input_text' as const, text }] }];

  before(async () => {
    sim = await startSimulator();
    client = new OpenAI({ apiKey: 'sk-test', baseURL: `${sim.openaiUrl}/v1`, maxRetries: 0 });
  });
  after(() => sim.close());
  beforeEach(() => sim.reset());

  it('answers a non-streaming response with the echo and usage', async () => {
    const response = await client.responses.create({ model: MODEL, instructions: 'be brief', input: userInput('Say hello'), store: false });
    expect(response.id).to.match(/^resp_/);
    expect(response.status).to.equal('completed');
    expect(response.output_text).to.equal('Echo: Say hello');
    expect(response.instructions).to.equal('be brief');
    expect(response).to.have.property('store', false);
    expect(response.usage).to.deep.include({ input_tokens: 5, output_tokens: 3, total_tokens: 8 });
  });

  it('accepts input as a plain string', async () => {
    const response = await client.responses.create({ model: MODEL, input: 'just text' });
    expect(response.output_text).to.equal('Echo: just text');
  });

  it('streams the full event sequence, numbered from 0 without gaps', async () => {
    const stream = client.responses.stream({ model: MODEL, input: userInput('Say hello') });
    const types: string[] = [];
    stream.on('event', (event: ResponseStreamEvent) => types.push(event.type));
    const response = await stream.finalResponse();
    expect(response.output_text).to.equal('Echo: Say hello');
    expect(types).to.deep.equal([
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added',
      'response.output_text.delta', 'response.output_text.delta', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
    ]);

    const raw = await post(`${sim.openaiUrl}/v1/responses`, { model: MODEL, stream: true, input: 'hi' }, auth);
    const events = parseSse(raw.text);
    const payloads = events.map((e) => JSON.parse(e.data) as { type: string; sequence_number: number });
    payloads.forEach((p, i) => {
      expect(p.sequence_number).to.equal(i);
      expect(p.type).to.equal(events[i].event);
    });
    expect(raw.text).not.to.include('[DONE]');
  });

  it('streams a function call with argument deltas', async () => {
    const stream = client.responses.stream({ model: MODEL, tools: TOOLS, input: userInput('weather [sim:tool]') });
    const deltas: string[] = [];
    stream.on('response.function_call_arguments.delta', (event) => deltas.push(event.delta));
    const response = await stream.finalResponse();
    const item = response.output[0];
    if (item.type !== 'function_call') throw new Error(`expected function_call, got ${item.type}`);
    expect(item.name).to.equal('get_weather');
    expect(item.id).to.match(/^fc_/);
    expect(item.call_id).to.match(/^call_/);
    expect(JSON.parse(item.arguments)).to.deep.equal({ city: 'x', unit: 'x' });
    expect(deltas.length).to.equal(3);
    expect(deltas.join('')).to.equal(item.arguments);

    const plain = await client.responses.create({ model: MODEL, tools: TOOLS, input: userInput('[sim:tool]') });
    expect(plain.output[0]).to.deep.include({ type: 'function_call', name: 'get_weather', arguments: '{"city":"x","unit":"x"}' });
  });

  it('answers function_call_output with "Tool said:"', async () => {
    const response = await client.responses.create({
      model: MODEL,
      tools: TOOLS,
      input: [
        ...userInput('weather [sim:tool]'),
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    });
    expect(response.output_text).to.equal('Tool said: sunny');
  });

  it('puts a reasoning item first on [sim:thinking], encrypted when asked', async () => {
    const stream = client.responses.stream({ model: MODEL, input: userInput('think [sim:thinking]'), include: ['reasoning.encrypted_content'] });
    const summaryDeltas: string[] = [];
    stream.on('response.reasoning_summary_text.delta', (event) => summaryDeltas.push(event.delta));
    const response = await stream.finalResponse();
    const [reasoning, message] = response.output;
    if (reasoning.type !== 'reasoning') throw new Error('expected a reasoning item first');
    expect(reasoning.id).to.match(/^rs_/);
    expect(reasoning.encrypted_content).to.be.a('string');
    expect(reasoning.summary[0].text).to.equal(summaryDeltas.join(''));
    expect(message.type).to.equal('message');
    expect(response.output_text).to.equal('Echo: think');
    expect(response.usage?.output_tokens_details.reasoning_tokens).to.equal(2);

    const plain = await client.responses.create({ model: MODEL, input: userInput('think [sim:thinking]') });
    expect(plain.output.map((i) => i.type)).to.deep.equal(['reasoning', 'message']);
    expect(plain.output[0]).not.to.have.property('encrypted_content');
  });

  it('ends with an error event after one delta on [sim:midstream-error]', async () => {
    const raw = await post(`${sim.openaiUrl}/v1/responses`, { model: MODEL, stream: true, input: 'x [sim:midstream-error]' }, auth);
    const events = sseJson(raw.text);
    const last = events.at(-1);
    expect(last).to.deep.include({ type: 'error', code: 'server_error', param: null, sequence_number: events.length - 1 });
    expect(events.filter((e) => e.type === 'response.output_text.delta')).to.have.length(1);
    expect(events.some((e) => e.type === 'response.completed')).to.equal(false);

    const stream = client.responses.stream({ model: MODEL, input: 'x [sim:midstream-error]' });
    // The SDK rejects with the error event itself.
    const error = await rejection(stream.finalResponse());
    expect(error).to.deep.include({ type: 'error', code: 'server_error' });
  });

  it('answers error directives in the OpenAI envelope', async () => {
    const error = await rejection(client.responses.create({ model: MODEL, input: '[sim:error=429]' }));
    expect(error).to.be.instanceOf(RateLimitError);
    const raw = await post(`${sim.openaiUrl}/v1/responses`, { model: MODEL, input: '[sim:error=500]' }, auth);
    expect(raw.status).to.equal(500);
    expect(JSON.parse(raw.text)).to.deep.equal({
      error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null },
    });
  });
});
