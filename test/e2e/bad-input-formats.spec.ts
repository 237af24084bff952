import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startSimulator, type Simulator } from '../../simulator';
import { FORMAT_PLUGIN_PATH } from '../helpers/format-plugin';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';

/**
 * Bad client bodies on translated routes: each client format's codec rejects them with a 400 in that family's error
 * shape, naming the field, before anything reaches the upstream.
 */

type Family = 'openai' | 'messages' | 'gemini';
type Json = Record<string, unknown>;
/** name, body, the field the error must name; a `path` overrides the format's endpoint. */
type BadCase = { name: string; body: unknown; field: string; path?: string };

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';
const user = (content: unknown) => ({ role: 'user', content });
const chat = (messages: unknown[], extra: Json = {}) => ({ model: 'm', messages, ...extra });
const responses = (input: unknown, extra: Json = {}) => ({ model: 'm', input, ...extra });
const messages = (list: unknown[], extra: Json = {}) => ({ model: 'm', max_tokens: 64, messages: list, ...extra });
const gemini = (contents: unknown, extra: Json = {}) => ({ contents, ...extra });
const userText = { role: 'user', parts: [{ text: 'x' }] };

const FORMATS: Array<{ format: string; path: string; family: Family; cases: BadCase[] }> = [
  {
    format: 'chat-completions',
    path: '/v1/chat/completions',
    family: 'openai',
    cases: [
      { name: 'model of the wrong type', body: { model: 5, messages: [user('x')] }, field: 'model' },
      { name: 'no model', body: { messages: [user('x')] }, field: 'model' },
      { name: 'messages not an array', body: { model: 'm', messages: 'hi' }, field: 'messages' },
      { name: 'empty messages', body: chat([]), field: 'messages' },
      { name: 'a message that is not an object', body: chat(['hi']), field: 'messages[0]' },
      { name: 'an unknown role', body: chat([{ role: 'robot', content: 'x' }]), field: 'messages[0].role' },
      { name: 'an unknown role, streaming', body: chat([{ role: 'robot', content: 'x' }], { stream: true }), field: 'messages[0].role' },
      { name: 'content of the wrong type', body: chat([user(5)]), field: 'messages[0].content' },
      { name: 'an unknown part type', body: chat([user([{ type: 'hologram' }])]), field: 'messages[0].content[0].type' },
      { name: 'an image part without image_url', body: chat([user([{ type: 'image_url' }])]), field: 'messages[0].content[0].image_url' },
      { name: 'a text part whose text is a number', body: chat([user([{ type: 'text', text: 5 }])]), field: 'messages[0].content[0].text' },
      { name: 'a data URI without a payload', body: chat([user([{ type: 'image_url', image_url: { url: 'data:image/png;base64' } }])]), field: 'messages[0].content[0].image_url.url' },
      { name: 'a tool message without tool_call_id', body: chat([user('x'), { role: 'tool', content: 'r' }]), field: 'messages[1].tool_call_id' },
      {
        name: 'tool call arguments that are an object',
        body: chat([user('x'), { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: { a: 1 } } }] }]),
        field: 'messages[1].tool_calls[0].function.arguments',
      },
      { name: 'a string temperature', body: chat([user('x')], { temperature: 'hot' }), field: 'temperature' },
      { name: 'a string stream flag', body: chat([user('x')], { stream: 'yes' }), field: 'stream' },
      { name: 'a tool without function', body: chat([user('x')], { tools: [{ type: 'function' }] }), field: 'tools[0].function' },
      { name: 'an unknown reasoning_effort', body: chat([user('x')], { reasoning_effort: 'extreme' }), field: 'reasoning_effort' },
    ],
  },
  {
    format: 'responses',
    path: '/v1/responses',
    family: 'openai',
    cases: [
      { name: 'model of the wrong type', body: { model: 5, input: 'x' }, field: 'model' },
      { name: 'no model', body: { input: 'x' }, field: 'model' },
      { name: 'input of the wrong type', body: responses(5), field: 'input' },
      { name: 'empty input', body: responses([]), field: 'input' },
      { name: 'an empty input string', body: responses(''), field: 'input' },
      { name: 'an item that is not an object', body: responses([5]), field: 'input[0]' },
      { name: 'an unknown role', body: responses([{ role: 'robot', content: 'x' }]), field: 'input[0].role' },
      { name: 'an unknown role, streaming', body: responses([{ role: 'robot', content: 'x' }], { stream: true }), field: 'input[0].role' },
      { name: 'an unknown item type', body: responses([{ type: 'hologram' }]), field: 'input[0].type' },
      { name: 'content of the wrong type', body: responses([user(5)]), field: 'input[0].content' },
      { name: 'an unknown part type', body: responses([user([{ type: 'input_hologram' }])]), field: 'input[0].content[0].type' },
      { name: 'input_text without text', body: responses([user([{ type: 'input_text' }])]), field: 'input[0].content[0].text' },
      { name: 'input_image without image_url', body: responses([user([{ type: 'input_image' }])]), field: 'input[0].content[0].image_url' },
      { name: 'a data URI without a payload', body: responses([user([{ type: 'input_image', image_url: 'data:image/png;base64' }])]), field: 'input[0].content[0].image_url' },
      { name: 'function_call_output without call_id', body: responses([{ type: 'function_call_output', output: 'r' }]), field: 'input[0].call_id' },
      { name: 'a function tool without name', body: responses('x', { tools: [{ type: 'function', parameters: {} }] }), field: 'tools[0].name' },
      { name: 'an unknown reasoning effort', body: responses('x', { reasoning: { effort: 'extreme' } }), field: 'reasoning.effort' },
      { name: 'a string max_output_tokens', body: responses('x', { max_output_tokens: 'lots' }), field: 'max_output_tokens' },
    ],
  },
  {
    format: 'messages',
    path: '/v1/messages',
    family: 'messages',
    cases: [
      { name: 'model of the wrong type', body: { model: 5, max_tokens: 64, messages: [user('x')] }, field: 'model' },
      { name: 'a string max_tokens', body: { model: 'm', max_tokens: 'many', messages: [user('x')] }, field: 'max_tokens' },
      { name: 'no messages', body: { model: 'm', max_tokens: 64 }, field: 'messages' },
      { name: 'messages not an array', body: { model: 'm', max_tokens: 64, messages: {} }, field: 'messages' },
      { name: 'empty messages', body: messages([]), field: 'messages' },
      { name: 'an unknown role', body: messages([{ role: 'robot', content: 'x' }]), field: 'messages[0].role' },
      { name: 'an unknown role, streaming', body: messages([{ role: 'robot', content: 'x' }], { stream: true }), field: 'messages[0].role' },
      { name: 'no content', body: messages([{ role: 'user' }]), field: 'messages[0].content' },
      { name: 'content of the wrong type', body: messages([user(5)]), field: 'messages[0].content' },
      { name: 'a block without type', body: messages([user([{ text: 'x' }])]), field: 'messages[0].content[0].type' },
      { name: 'an unknown block type', body: messages([user([{ type: 'hologram' }])]), field: 'messages[0].content[0].type' },
      { name: 'an image without source', body: messages([user([{ type: 'image' }])]), field: 'messages[0].content[0].source' },
      { name: 'a base64 image without media_type', body: messages([user([{ type: 'image', source: { type: 'base64', data: PNG } }])]), field: 'messages[0].content[0].source.media_type' },
      { name: 'a tool_result without tool_use_id', body: messages([user([{ type: 'tool_result', content: 'r' }])]), field: 'messages[0].content[0].tool_use_id' },
      { name: 'a tool_use block in a user turn', body: messages([user([{ type: 'tool_use', id: 't', name: 'f', input: {} }])]), field: 'messages[0].content[0].type' },
      { name: 'system of the wrong type', body: messages([user('x')], { system: 5 }), field: 'system' },
      { name: 'a string thinking budget', body: messages([user('x')], { thinking: { type: 'enabled', budget_tokens: 'big' } }), field: 'thinking.budget_tokens' },
      { name: 'a custom tool without input_schema', body: messages([user('x')], { tools: [{ name: 'f' }] }), field: 'tools[0].input_schema' },
    ],
  },
  {
    format: 'gemini',
    path: '/v1beta/models/gemini-2.5-flash:generateContent',
    family: 'gemini',
    cases: [
      { name: 'no contents', body: {}, field: 'contents' },
      { name: 'contents not an array', body: gemini(5), field: 'contents' },
      { name: 'empty contents', body: gemini([]), field: 'contents' },
      { name: 'empty contents, streaming', body: gemini([]), field: 'contents', path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse' },
      { name: 'a content that is not an object', body: gemini(['x']), field: 'contents[0]' },
      { name: 'an unknown role', body: gemini([{ role: 'assistant', parts: [{ text: 'x' }] }]), field: 'contents[0].role' },
      { name: 'no parts', body: gemini([{ role: 'user' }]), field: 'contents[0].parts' },
      { name: 'parts not an array', body: gemini([{ role: 'user', parts: 'x' }]), field: 'contents[0].parts' },
      { name: 'empty parts', body: gemini([{ role: 'user', parts: [] }]), field: 'contents[0].parts' },
      { name: 'a part with no data', body: gemini([{ role: 'user', parts: [{}] }]), field: 'contents[0].parts[0]' },
      { name: 'text that is a number', body: gemini([{ role: 'user', parts: [{ text: 5 }] }]), field: 'contents[0].parts[0].text' },
      { name: 'inlineData without mimeType', body: gemini([{ role: 'user', parts: [{ inlineData: { data: PNG } }] }]), field: 'contents[0].parts[0].inlineData.mimeType' },
      { name: 'a functionCall without name', body: gemini([{ role: 'model', parts: [{ functionCall: { args: {} } }] }]), field: 'contents[0].parts[0].functionCall.name' },
      { name: 'a string temperature', body: gemini([userText], { generationConfig: { temperature: 'hot' } }), field: 'generationConfig.temperature' },
      { name: 'systemInstruction of the wrong type', body: gemini([userText], { systemInstruction: 5 }), field: 'systemInstruction' },
      { name: 'tools of the wrong type', body: gemini([userText], { tools: 5 }), field: 'tools' },
      { name: 'a function declaration without name', body: gemini([userText], { tools: [{ functionDeclarations: [{ description: 'd' }] }] }), field: 'tools[0].functionDeclarations[0].name' },
    ],
  },
];

/** The error message of each family's shape, after checking the shape itself. */
function familyMessage(family: Family, body: Json): string {
  switch (family) {
    case 'openai': {
      const error = body.error as { message: string; type: string; param?: string | null; code?: string | null };
      expect(error.type).to.equal('invalid_request_error');
      return error.message;
    }
    case 'messages': {
      expect(body.type).to.equal('error');
      const error = body.error as { type: string; message: string };
      expect(error.type).to.equal('invalid_request_error');
      return error.message;
    }
    case 'gemini': {
      const error = body.error as { code: number; status: string; message: string };
      expect(error.code).to.equal(400);
      expect(error.status).to.equal('INVALID_ARGUMENT');
      return error.message;
    }
  }
}

describe('e2e: bad client bodies answer 400 in the family shape, naming the field, without an upstream call', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway({
      'to-chat': { plugin: FORMAT_PLUGIN_PATH, baseUrl: sim.openaiUrl, upstream: 'chat-completions', apiKey: 'sim-upstream-key-0001' },
      'to-messages': { plugin: FORMAT_PLUGIN_PATH, baseUrl: sim.anthropicUrl, upstream: 'messages', apiKey: 'sim-upstream-key-0001' },
      'to-gemini': { plugin: FORMAT_PLUGIN_PATH, baseUrl: sim.geminiUrl, upstream: 'gemini', apiKey: 'sim-upstream-key-0001' },
    });
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(() => sim.reset());

  async function post(path: string, body: unknown): Promise<{ status: number; contentType: string | null; json: Json }> {
    const res = await fetch(`${gw.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, contentType: res.headers.get('content-type'), json: (await res.json()) as Json };
  }

  for (const { format, path, family, cases } of FORMATS) {
    describe(`${format} client`, () => {
      for (const { name, body, field, path: casePath } of cases) {
        it(`${name} → 400 naming ${field}`, async () => {
          const res = await post(`/to-chat${casePath ?? path}`, body);
          expect(res.status).to.equal(400);
          expect(res.contentType).to.match(/^application\/json/);
          const message = familyMessage(family, res.json);
          expect(message.startsWith(`${field}:`), message).to.equal(true);
          if (family === 'openai') expect((res.json.error as Json).param).to.equal(field);
          expect(sim.requests).to.have.length(0);
        });
      }
    });
  }

  describe('what the upstream format cannot express', () => {
    const cases: Array<{ name: string; platform: string; body: unknown; status: number; field: string }> = [
      { name: 'audio input, to Anthropic', platform: 'to-messages', body: chat([user([{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }])]), status: 415, field: 'messages[0].content[0]' },
    ];
    for (const { name, platform, body, status, field } of cases) {
      it(`${name} → ${status} naming ${field}`, async () => {
        const res = await post(`/${platform}/v1/chat/completions`, body);
        expect(res.status).to.equal(status);
        expect(familyMessage('openai', res.json).startsWith(`${field}:`)).to.equal(true);
        expect(sim.requests).to.have.length(0);
      });
    }

    it('a tool result whose call is unknown, to Gemini (it needs the function name) → 400 naming the call id', async () => {
      const res = await post('/to-gemini/v1/chat/completions', chat([user('x'), { role: 'tool', tool_call_id: 'call_9', content: 'sunny' }]));
      expect(res.status).to.equal(400);
      expect(familyMessage('openai', res.json)).to.match(/^a tool result answers call id "call_9", which no earlier tool call/);
      expect(sim.requests).to.have.length(0);
    });
  });

  describe('what the gateway itself may have handed the client', () => {
    const toolTurns = [
      user('x'),
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Par' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ];
    const sentArgs: Array<[string, (body: Json) => unknown]> = [
      ['to-messages', (body) => ((body.messages as Json[])[1].content as Json[])[0].input],
      ['to-gemini', (body) => (((body.contents as Json[])[1].parts as Json[])[0].functionCall as Json).args],
    ];
    for (const [platform, argsOf] of sentArgs) {
      it(`tool arguments cut short (not JSON) go to ${platform} as {} rather than failing the conversation`, async () => {
        const res = await post(`/${platform}/v1/chat/completions`, chat(toolTurns));
        expect(res.status).to.equal(200);
        expect(argsOf(sim.requests[0].body as Json)).to.deep.equal({});
      });
    }
  });

  describe('the official SDKs raise these as bad-request errors', () => {
    it('openai (chat completions and responses)', async () => {
      const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/to-chat/v1`, maxRetries: 0 });
      const chatError = await client.chat.completions
        .create({ model: 'm', messages: [{ role: 'robot', content: 'x' }] } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming)
        .catch((e: unknown) => e);
      expect(chatError).to.be.instanceOf(OpenAI.BadRequestError);
      expect((chatError as InstanceType<typeof OpenAI.BadRequestError>).message).to.include('messages[0].role');
      const responsesError = await client.responses.create({ model: 'm', input: [] }).catch((e: unknown) => e);
      expect(responsesError).to.be.instanceOf(OpenAI.BadRequestError);
      expect((responsesError as Error).message).to.include('input');
      expect(sim.requests).to.have.length(0);
    });

    it('@anthropic-ai/sdk', async () => {
      const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/to-chat`, maxRetries: 0 });
      const error = await client.messages.create({ model: 'm', max_tokens: 64, messages: [] }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(Anthropic.BadRequestError);
      expect((error as InstanceType<typeof Anthropic.BadRequestError>).message).to.include('messages');
      expect(sim.requests).to.have.length(0);
    });

    it('@google/genai', async () => {
      const client = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${gw.url}/to-chat` } });
      const error = await client.models
        .generateContent({ model: 'gemini-2.5-flash', contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] })
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ApiError);
      expect((error as ApiError).status).to.equal(400);
      expect((error as ApiError).message).to.include('contents[0].role');
      expect(sim.requests).to.have.length(0);
    });
  });
});
