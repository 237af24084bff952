import { expect } from 'chai';
import OpenAI from 'openai';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../helpers/start-raw-upstream';

const line = (value: Record<string, unknown>): string => `data: ${JSON.stringify(value)}\n\n`;
const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
  line({ id: 'chatcmpl-7', object: 'chat.completion.chunk', created: 1757935200, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finishReason }] });
/** Azure OpenAI's first chunk: its prompt filter results only, names empty and `created: 0`. */
const AZURE_FIRST = line({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }] });

describe('e2e: chat upstream streams as some services send them, to a Responses client (OpenAI SDK → gateway → raw upstream)', () => {
  let upstream: RawUpstream;
  let gw: RunningGateway;
  let openai: OpenAI;
  before(async () => {
    upstream = await startRawUpstream();
    gw = await startGateway({ azure: { plugin: 'openai', baseUrl: upstream.url, responses: 'chat', credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] } });
    openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/azure/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  function replay(body: string): void {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
    });
  }

  it("Azure's prompt-filter chunk does not make the answer's id, model and time (created_at was 0)", async () => {
    replay(AZURE_FIRST + chunk({ role: 'assistant', content: 'Hello' }) + chunk({}, 'stop') + 'data: [DONE]\n\n');
    const response = await openai.responses.stream({ model: 'gpt-4o', input: 'hi' }).finalResponse();
    expect(response.output_text).to.equal('Hello');
    expect(response.created_at).to.equal(1757935200);
    expect(response.model).to.equal('gpt-4o');
  });

  it('a call of a function without parameters whose arguments came as "" reaches the client as {}, which it can parse', async () => {
    replay(chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'list_files', arguments: '' } }] }) + chunk({}, 'tool_calls') + 'data: [DONE]\n\n');
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'list_files', parameters: { type: 'object', properties: {} }, strict: false }];
    const streamed = await openai.responses.stream({ model: 'gpt-4o', input: 'ls', tools }).finalResponse();
    const call = streamed.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' && call.arguments).to.equal('{}');

    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'chatcmpl-8', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'list_files', arguments: '' } }] }, finish_reason: 'tool_calls' }] }));
    });
    const whole = await openai.responses.create({ model: 'gpt-4o', input: 'ls', tools });
    const wholeCall = whole.output.find((item) => item.type === 'function_call');
    expect(wholeCall?.type === 'function_call' && wholeCall.arguments).to.equal('{}');
  });
});
