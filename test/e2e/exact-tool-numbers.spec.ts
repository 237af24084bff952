import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../helpers/start-raw-upstream';

/** A snowflake-style id past 2^53: JSON.parse reads it as 12345678901234567000, another order. */
const BIG = '12345678901234567890';
const ARGS = `{"order_id":${BIG},"ratio":0.12345678901234567890}`;

/**
 * Tool arguments cross a translation with their numbers as written: read from the bytes when a number would not survive
 * a double, on the way up (a client's call history) and on the way back (a model's call), whole and streamed.
 */
describe('e2e: numbers in tool calls keep their digits through a translation', function () {
  this.timeout(20_000);
  let upstream: RawUpstream;
  let gw: RunningGateway;
  /** The bytes of the last request the upstream got. */
  let sent = '';
  const answer = (contentType: string, body: string): void =>
    upstream.handle((_req, res, bytes) => {
      sent = bytes.toString('utf8');
      res.writeHead(200, { 'content-type': contentType });
      res.end(body);
    });

  before(async () => {
    upstream = await startRawUpstream();
    gw = await startGateway({
      claude: { plugin: 'claude', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-ant-api03-exact-numbers-000000' }] },
      gemini: { plugin: 'gemini', baseUrl: upstream.url, credentials: [{ apiKey: 'AIzaSy-exact-numbers-key-0000001' }] },
      openai: { plugin: 'openai', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-exact-numbers-key-00000000001' }] },
    });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  const chatClient = (platform: string): OpenAI => new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/${platform}/v1`, maxRetries: 0 });
  const TOOLS: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_order', parameters: { type: 'object', properties: { order_id: { type: 'integer' } } } } }];

  it('chat client → Claude: the history\'s arguments reach Claude as written, and Claude\'s call comes back as written (both lost digits)', async () => {
    answer(
      'application/json',
      `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-6","content":[{"type":"tool_use","id":"toolu_2","name":"get_order","input":${ARGS}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":5}}`,
    );
    const completion = await chatClient('claude').chat.completions.create({
      model: 'claude-sonnet-4-6',
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'order?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_order', arguments: ARGS } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'shipped' },
      ],
    });
    expect(sent).to.include(`"input":${ARGS}`);
    const call = completion.choices[0].message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.arguments).to.equal(ARGS);
  });

  it('chat client → Gemini, streamed: a functionCall\'s args come back as written', async () => {
    const chunk = `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_order","args":${ARGS}}}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":3,"totalTokenCount":8},"modelVersion":"gemini-2.5-flash"}`;
    answer('text/event-stream', `data: ${chunk}\r\n\r\n`);
    const stream = await chatClient('gemini').chat.completions.create({ model: 'gemini-2.5-flash', tools: TOOLS, stream: true, messages: [{ role: 'user', content: 'order?' }] });
    let args = '';
    for await (const part of stream) for (const call of part.choices[0]?.delta.tool_calls ?? []) args += call.function?.arguments ?? '';
    expect(args).to.equal(ARGS);
  });

  it('Gemini client → Claude: a functionCall\'s args and a functionResponse reach Claude as written', async () => {
    answer('application/json', '{"id":"msg_3","type":"message","role":"assistant","model":"claude-sonnet-4-6","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}');
    const body = `{"contents":[{"role":"user","parts":[{"text":"order?"}]},{"role":"model","parts":[{"functionCall":{"name":"get_order","args":${ARGS}}}]},{"role":"user","parts":[{"functionResponse":{"name":"get_order","response":{"order":${BIG}}}}]}]}`;
    const res = await fetch(`${gw.url}/claude/v1beta/models/claude-sonnet-4-6:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': TEST_LICENSE, 'content-type': 'application/json' }, body });
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(sent).to.include(`"input":${ARGS}`);
    expect(sent).to.include(`{\\"order\\":${BIG}}`);
  });

  it('Messages client → a chat upstream: the history\'s tool_use input reaches it as written, and its call comes back as written', async () => {
    answer(
      'application/json',
      JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4.1', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'get_order', arguments: ARGS } }] } }] }),
    );
    const body = `{"model":"gpt-4.1","max_tokens":100,"tools":[{"name":"get_order","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"order?"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_order","input":${ARGS}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"shipped"}]}]}`;
    const res = await fetch(`${gw.url}/openai/v1/messages`, { method: 'POST', headers: { 'x-api-key': TEST_LICENSE, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body });
    const text = await res.text();
    expect(res.status, text).to.equal(200);
    expect(JSON.parse(sent).messages[1].tool_calls[0].function.arguments).to.equal(ARGS);
    expect(text).to.include(`"input":${ARGS}`);
    // The official SDK reads the answer as any client does.
    expect(((JSON.parse(text) as Anthropic.Message).content[0] as Anthropic.ToolUseBlock).name).to.equal('get_order');
  });
  it('a bare number where an object belongs stays what it was: a chat tool result is wrapped for Gemini, a Messages input is a 400', async () => {
    answer('application/json', '{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}]}');
    await chatClient('gemini').chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'user', content: 'new id?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'new_id', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: BIG },
      ],
    });
    expect(sent).to.include(`"response":{"result":"${BIG}"}`);
    const body = `{"model":"claude-sonnet-4-6","max_tokens":100,"messages":[{"role":"user","content":"order?"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_order","input":${BIG}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"shipped"}]}]}`;
    const res = await fetch(`${gw.url}/openai/v1/messages`, { method: 'POST', headers: { 'x-api-key': TEST_LICENSE, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body });
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.equal('messages[1].content[0].input: must be object');
  });
});
