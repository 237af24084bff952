import { expect } from 'chai';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { messagesEvent as event, SSE, startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream';

/** `{"a":{"a":…1…}}`, `levels` deep, written as text: JSON.stringify itself overflows on such a value. */
const deepText = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

const MESSAGE = { id: 'msg_deep', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };

/** A Messages answer calling `f` with `input` as given (JSON text). */
function answer(input: string): string {
  return JSON.stringify({ ...MESSAGE, content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: '@INPUT@' }], stop_reason: 'tool_use' }).replace('"@INPUT@"', input);
}

/** A Messages stream calling `f`, its arguments in one input_json_delta, or in the block's start when `inStart`. */
function stream(input: string, inStart = false): string {
  return [
    event('message_start', { message: { ...MESSAGE, content: [], stop_reason: null } }),
    inStart
      ? `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":${input}}}\n\n`
      : event('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } }),
    inStart ? '' : event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: input } }),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 3 } }),
    event('message_stop', {}),
  ].join('');
}

describe('claude plugin: answers nested deeper than the gateway translates', () => {
  let upstream: FakeUpstream;
  let gw: RunningGateway;
  before(async () => {
    upstream = await startFakeUpstream();
    gw = await startGateway({ claude: { plugin: 'claude', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-ant-api03-deep-answer-000000000001' }] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  const chat = (body: Record<string, unknown> = {}) =>
    fetch(`${gw.url}/claude/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }], ...body }),
    });
  const gemini = (action: string) =>
    fetch(`${gw.url}/claude/v1beta/models/claude-sonnet-4-6:${action}`, {
      method: 'POST',
      headers: { 'x-goog-api-key': TEST_LICENSE, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }], tools: [{ functionDeclarations: [{ name: 'f' }] }] }),
    });

  it('a whole answer 5,000 levels deep is a 502 in the client format, not a 500', async () => {
    upstream.queue({ status: 200, body: answer(deepText(5000)) });
    const res = await chat();
    expect(res.status).to.equal(502);
    expect(await res.json()).to.deep.equal({
      error: { message: 'upstream answered JSON nested deeper than 256 levels of arrays and objects', type: 'server_error', param: null, code: 'gw_upstream_bad_response' },
    });
  });

  it('a call 250 levels deep (within the answer limit) still reaches a chat client as its text and a Gemini client as its object', async () => {
    upstream.queue({ status: 200, body: answer(deepText(250)) });
    const ok = (await (await chat()).json()) as { choices: Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> } }> };
    expect(ok.choices[0].message.tool_calls[0].function.arguments).to.equal(deepText(250));
    upstream.queue({ status: 200, body: answer(deepText(250)) });
    const res = await gemini('generateContent');
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { candidates: Array<{ content: { parts: Array<{ functionCall: { args: unknown } }> } }> };
    expect(JSON.stringify(body.candidates[0].content.parts[0].functionCall.args)).to.equal(deepText(250));
  });

  it("a Gemini stream whose call is 5,000 levels deep is answered with Gemini's error (a 502 before any event), where it was an empty 200", async () => {
    upstream.queue({ status: 200, headers: SSE, body: stream(deepText(5000)) });
    const res = await gemini('streamGenerateContent?alt=sse');
    expect(res.status).to.equal(502);
    expect(await res.json()).to.deep.equal({ error: { code: 502, message: 'upstream answered a tool call whose arguments nest deeper than 256 levels of arrays and objects', status: 'INTERNAL' } });
  });

  it('a stream event 5,000 levels deep (a block start holding the input) ends a chat stream with an error event', async () => {
    upstream.queue({ status: 200, headers: SSE, body: stream(deepText(5000), true) });
    const text = await (await chat({ stream: true })).text();
    expect(text).to.include('upstream answered a stream event with JSON nested deeper than 256 levels of arrays and objects');
    expect(text).to.not.include('[DONE]');
  });
});
