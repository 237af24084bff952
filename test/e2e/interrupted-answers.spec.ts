import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../helpers/start-raw-upstream';

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-chat', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
const USAGE = `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-chat', choices: [], usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 } })}\n\n`;

/** DeepSeek breaking a Write call off inside its arguments, as it does under load. */
const CUT_TOOL_CALL = [
  chunk({ role: 'assistant', content: null }),
  chunk({ tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'Write', arguments: '{"path":"a.txt","content":"line1\\nli' } }] }),
  chunk({}, 'insufficient_system_resource'),
  USAGE,
  'data: [DONE]\n\n',
].join('');

const WRITE: Anthropic.Tool = { name: 'Write', input_schema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } };

describe('e2e: an answer a chat upstream broke off (finish_reason insufficient_system_resource, abort) is an upstream error, not a finished answer', () => {
  let upstream: RawUpstream;
  let gw: RunningGateway;
  before(async () => {
    upstream = await startRawUpstream();
    // Without the Responses API: Responses calls are translated to chat, as for DeepSeek.
    gw = await startGateway({ deepseek: { plugin: 'openai', baseUrl: upstream.url, responses: 'chat', credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  it('a Messages stream cut inside a tool call ends with an error, not a tool_use the agent would run with fields missing', async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(CUT_TOOL_CALL);
    });
    const anthropic = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/deepseek`, maxRetries: 0 });
    const failure = await anthropic.messages
      .stream({ model: 'deepseek-chat', max_tokens: 100, tools: [WRITE], messages: [{ role: 'user', content: 'write a.txt' }] })
      .finalMessage()
      .then(() => undefined, (error: unknown) => error);
    expect(String(failure)).to.match(/insufficient_system_resource/);
  });

  it('a Responses stream fails rather than completing; a whole chat answer broken off is a 502 the SDK retries', async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(CUT_TOOL_CALL);
    });
    const openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/deepseek/v1`, maxRetries: 0 });
    const types: string[] = [];
    const streamed = await (async () => {
      for await (const event of await openai.responses.create({ model: 'deepseek-chat', input: 'x', stream: true, tools: [{ type: 'function', name: 'Write', parameters: { type: 'object' }, strict: false }] })) types.push(event.type);
    })().then(() => undefined, (error: unknown) => error);
    // Codex reads response.failed (or the SDK throws on the error event before it) and retries the turn.
    expect(types).not.to.include('response.completed');
    expect(streamed !== undefined || types.includes('response.failed'), `${String(streamed)} ${types.join(' ')}`).to.equal(true);

    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion', created: 1, model: 'qwen3', choices: [{ index: 0, message: { role: 'assistant', content: 'The answer is' }, finish_reason: 'abort' }], usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 } }));
    });
    const anthropic = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/deepseek`, maxRetries: 0 });
    const error = await anthropic.messages.create({ model: 'qwen3', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).to.equal(502);
  });
});
