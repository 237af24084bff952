import { expect } from 'chai';
import { startSimulator, type Simulator } from '../../simulator';
import { FORMAT_PLUGIN_PATH } from '../helpers/format-plugin';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';

/**
 * A body nested thousands of levels deep (a tool schema, say) overflows the call stack in the codecs and in
 * JSON.stringify of the upstream body. Every JSON body past 128 levels is refused with a 400 in the endpoint's own
 * error shape, on translated and passthrough routes alike, before anything reaches the upstream.
 */

type Json = Record<string, unknown>;

const LIMIT = 128;
const MESSAGE = `request body is nested deeper than ${LIMIT} levels of arrays and objects`;

/** A JSON schema `levels` objects deep: arrays of arrays of … strings. */
function deepSchema(levels: number): string {
  return '{"type":"array","items":'.repeat(levels - 1) + '{"type":"string"}' + '}'.repeat(levels - 1);
}

/** The body's own object, `tools`, the tool and `function` are 4 levels above `parameters`. */
function chatBody(depth: number): string {
  const body = { model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'f', parameters: 0 } }] };
  return JSON.stringify(body).replace('"parameters":0', `"parameters":${deepSchema(depth - 4)}`);
}

/** The body's own object, `tools` and the tool are 3 levels above `input_schema`. */
function messagesBody(depth: number): string {
  const body = { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'x' }], tools: [{ name: 'f', input_schema: 0 }] };
  return JSON.stringify(body).replace('"input_schema":0', `"input_schema":${deepSchema(depth - 3)}`);
}

/** The body's own object, `tools`, the tool, `functionDeclarations` and the declaration are 5 levels above `parameters`. */
function geminiBody(depth: number): string {
  const body = { contents: [{ role: 'user', parts: [{ text: 'x' }] }], tools: [{ functionDeclarations: [{ name: 'f', parameters: 0 }] }] };
  return JSON.stringify(body).replace('"parameters":0', `"parameters":${deepSchema(depth - 5)}`);
}

/** The depth of a parsed value, the value itself included. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value as Json);
  let deepest = 0;
  for (const child of children) deepest = Math.max(deepest, depthOf(child));
  return 1 + deepest;
}

/** Each family's error envelope: its message, after checking the shape itself. */
const SHAPES = {
  openai(body: Json): string {
    const error = body.error as { message: string; type: string };
    expect(error.type).to.equal('invalid_request_error');
    return error.message;
  },
  messages(body: Json): string {
    expect(body.type).to.equal('error');
    const error = body.error as { type: string; message: string };
    expect(error.type).to.equal('invalid_request_error');
    return error.message;
  },
  gemini(body: Json): string {
    const error = body.error as { code: number; status: string; message: string };
    expect(error.code).to.equal(400);
    expect(error.status).to.equal('INVALID_ARGUMENT');
    return error.message;
  },
};

const ROUTES: Array<{ name: string; path: string; shape: keyof typeof SHAPES; body: (depth: number) => string }> = [
  { name: 'chat completions, translated to Gemini', path: '/to-gemini/v1/chat/completions', shape: 'openai', body: chatBody },
  { name: 'chat completions, translated to Messages', path: '/to-messages/v1/chat/completions', shape: 'openai', body: chatBody },
  { name: 'chat completions, passthrough', path: '/openai/v1/chat/completions', shape: 'openai', body: chatBody },
  { name: 'messages, translated to chat completions', path: '/to-chat/v1/messages', shape: 'messages', body: messagesBody },
  { name: 'messages, passthrough', path: '/claude/v1/messages', shape: 'messages', body: messagesBody },
  { name: 'Gemini generateContent, translated to Messages', path: '/to-messages/v1beta/models/gemini-2.5-flash:generateContent', shape: 'gemini', body: geminiBody },
];

describe('e2e: a body nested too deeply answers 400 in the family shape, without an upstream call', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway({
      'to-chat': { plugin: FORMAT_PLUGIN_PATH, baseUrl: sim.openaiUrl, upstream: 'chat-completions', apiKey: 'sim-upstream-key-0001' },
      'to-messages': { plugin: FORMAT_PLUGIN_PATH, baseUrl: sim.anthropicUrl, upstream: 'messages', apiKey: 'sim-upstream-key-0001' },
      'to-gemini': { plugin: FORMAT_PLUGIN_PATH, baseUrl: sim.geminiUrl, upstream: 'gemini', apiKey: 'sim-upstream-key-0001' },
      openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-key-0001' }] },
      claude: { plugin: 'claude', baseUrl: sim.anthropicUrl, credentials: [{ apiKey: 'sk-ant-sim-upstream-0001' }] },
    });
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(() => sim.reset());

  async function post(path: string, body: string): Promise<{ status: number; json: Json }> {
    const res = await fetch(`${gw.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body,
    });
    return { status: res.status, json: (await res.json()) as Json };
  }

  for (const { name, path, shape, body } of ROUTES) {
    describe(name, () => {
      it('refuses a tool schema 3,000 levels deep', async () => {
        const text = body(3000);
        expect(depthOf(JSON.parse(text))).to.equal(3000);
        const res = await post(path, text);
        expect(res.status).to.equal(400);
        expect(SHAPES[shape](res.json)).to.equal(MESSAGE);
        expect(sim.requests).to.have.length(0);
      });

      it(`refuses one ${LIMIT + 1} levels deep`, async () => {
        const res = await post(path, body(LIMIT + 1));
        expect(res.status).to.equal(400);
        expect(SHAPES[shape](res.json)).to.equal(MESSAGE);
        expect(sim.requests).to.have.length(0);
      });

      it(`serves one exactly ${LIMIT} levels deep`, async () => {
        const text = body(LIMIT);
        expect(depthOf(JSON.parse(text))).to.equal(LIMIT);
        const res = await post(path, text);
        expect(res.status, JSON.stringify(res.json)).to.equal(200);
        expect(sim.requests).to.have.length(1);
      });
    });
  }

  it('does not count brackets and escaped quotes inside strings', async () => {
    // As JSON: `\"` (a quote), `\\\"` (a backslash, then a quote), then brackets that would be 1,000 levels.
    const text = JSON.stringify(`x "${'\\"[{'.repeat(500)} \\`);
    const body = chatBody(LIMIT).replace('"content":"x"', `"content":${text}`).replace('"name":"f"', `"name":"f","description":${text}`);
    const res = await post('/to-gemini/v1/chat/completions', body);
    expect(res.status, JSON.stringify(res.json)).to.equal(200);
    expect(sim.requests).to.have.length(1);
  });

  describe('JSON a client puts in a string (tool-call arguments, tool results), which a translation parses', () => {
    const deep = (levels: number): string => '{"x":'.repeat(levels) + '1' + '}'.repeat(levels);
    const conversation = (args: string, result: string): string =>
      JSON.stringify({
        model: 'm',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: args } }] },
          { role: 'tool', tool_call_id: 'call_1', content: result },
        ],
      });

    for (const path of ['/to-gemini/v1/chat/completions', '/to-messages/v1/chat/completions']) {
      it(`refuses arguments nested past ${LIMIT} levels with a 400 naming them, and serves ${LIMIT} (${path})`, async () => {
        const refused = await post(path, conversation(deep(6000), 'ok'));
        expect(refused.status, JSON.stringify(refused.json)).to.equal(400);
        expect(SHAPES.openai(refused.json)).to.equal(`messages[1].content[0].arguments: nested deeper than ${LIMIT} levels of arrays and objects`);
        expect((refused.json.error as { param: string }).param).to.equal('messages[1].content[0].arguments');
        expect(sim.requests).to.have.length(0);
        const served = await post(path, conversation(deep(LIMIT), 'ok'));
        expect(served.status, JSON.stringify(served.json)).to.equal(200);
      });
    }

    it('sends a tool result nested past the limit to Gemini as text, not as JSON it cannot serialise', async () => {
      const result = deep(6000);
      const res = await post('/to-gemini/v1/chat/completions', conversation('{}', result));
      expect(res.status, JSON.stringify(res.json)).to.equal(200);
      const contents = (sim.requests[0].body as { contents: Array<{ parts: Array<{ functionResponse?: { response: unknown } }> }> }).contents;
      const response = contents.flatMap((content) => content.parts).find((part) => part.functionResponse)?.functionResponse?.response;
      expect(response).to.deep.equal({ result });
    });
  });

  it('passes the bytes of a body at the limit through unchanged', async () => {
    const text = messagesBody(LIMIT);
    const res = await post('/claude/v1/messages', text);
    expect(res.status).to.equal(200);
    expect(sim.requests[0].rawBody.toString('utf8')).to.equal(text);
  });
});
