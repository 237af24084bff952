import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startSimulator, type RecordedRequest, type Simulator } from '../../../simulator';
import { startGateway, TEST_ADMIN_KEY, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

const API_KEY = 'sk-ant-api03-simulated-upstream-key-0001';
const SESSION_KEY = 'sk-ant-sid01-simulated-session-key-0001';
const MODEL = 'claude-sonnet-4-6';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';
const WEATHER = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather of a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

function claudePlatform(sim: Simulator, credentials: Array<Record<string, string>>) {
  return {
    claude: { plugin: 'claude', baseUrl: sim.anthropicUrl, credentials, claudeAiUrl: sim.claudeAiUrl, oauthTokenUrl: `${sim.claudeAiUrl}/v1/oauth/token` },
  };
}

function anthropicCalls(sim: Simulator): RecordedRequest[] {
  return sim.requests.filter((r) => r.vendor === 'anthropic');
}

function oauthCalls(sim: Simulator): string[] {
  return sim.requests.filter((r) => r.vendor === 'claude-ai').map((r) => (r.path === '/v1/oauth/token' ? `token:${String((r.body as { grant_type: string }).grant_type)}` : r.path));
}

/** The assistant turns the simulator received, as Messages content blocks. */
function assistantTurns(request: RecordedRequest): Array<Array<Record<string, unknown>>> {
  return (request.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }).messages.filter((m) => m.role === 'assistant').map((m) => m.content);
}

describe('e2e: SDKs → gateway → simulator (claude plugin, API key)', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let anthropic: Anthropic;
  let openai: OpenAI;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway(claudePlatform(sim, [{ apiKey: API_KEY }]));
    anthropic = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude`, maxRetries: 0 });
    openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(() => sim.reset());

  it('Anthropic SDK: messages.create passes through with the upstream key and the SDK’s own version header', async () => {
    const message = await anthropic.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'hello claude' }] });
    expect(message.content).to.deep.equal([{ type: 'text', text: 'Echo: hello claude' }]);
    const seen = anthropicCalls(sim)[0];
    expect(seen.headers['x-api-key']).to.equal(API_KEY);
    expect(seen.headers.authorization).to.equal(undefined);
    expect(seen.headers['anthropic-version']).to.be.a('string');
    expect(JSON.stringify(seen.headers)).not.to.include(TEST_LICENSE);
  });

  it('Anthropic SDK: a stream rebuilds text and thinking with its signature', async () => {
    const stream = anthropic.messages.stream({ model: MODEL, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'think then say hi [sim:thinking] [sim:chunks=4]' }] });
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const final = await stream.finalMessage();
    expect(deltas.join('')).to.equal('Echo: think then say hi');
    expect(deltas.length).to.equal(4);
    const thinking = final.content.find((block) => block.type === 'thinking');
    expect(thinking && 'signature' in thinking ? thinking.signature : '').to.match(/^[A-Za-z0-9+/=]+$/);
  });

  it('Anthropic SDK: tool use round trip, with the client’s anthropic-beta passed on', async () => {
    const tools = [{ name: 'get_weather', description: 'Weather of a city.', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } }];
    const first = await anthropic.beta.messages.create({ model: MODEL, max_tokens: 256, tools, betas: ['interleaved-thinking-2025-05-14'], messages: [{ role: 'user', content: 'weather? [sim:tool]' }] });
    const call = first.content.find((block) => block.type === 'tool_use');
    expect(call).to.deep.include({ name: 'get_weather', input: { city: 'x' } });
    expect(first.stop_reason).to.equal('tool_use');
    const seen = anthropicCalls(sim)[0];
    expect(seen.headers['anthropic-beta']).to.equal('interleaved-thinking-2025-05-14');

    const second = await anthropic.messages.create({
      model: MODEL,
      max_tokens: 256,
      tools,
      messages: [
        { role: 'user', content: 'weather? [sim:tool]' },
        { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call && 'id' in call ? call.id : '', content: 'sunny' }] },
      ],
    });
    expect(second.content).to.deep.equal([{ type: 'text', text: 'Tool said: sunny' }]);
  });

  it('Anthropic SDK: count_tokens passes through', async () => {
    const count = await anthropic.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'count these words' }] });
    expect(count.input_tokens).to.be.a('number').and.greaterThan(0);
  });

  it('openai SDK: chat completion translated to Messages with the Claude defaults', async () => {
    const completion = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello there' }] });
    expect(completion.choices[0].message.content).to.equal('Echo: hello there');
    expect(completion.usage?.total_tokens).to.be.a('number');
    const seen = anthropicCalls(sim)[0];
    expect(seen.headers['anthropic-version']).to.equal('2023-06-01');
    expect(seen.body).to.deep.include({ model: MODEL, max_tokens: 32000, system: [{ type: 'text', text: 'Be brief.' }] });
  });

  it('openai SDK: a -thinking model streams reasoning_content then content', async () => {
    const stream = await openai.chat.completions.create({ model: `${MODEL}-thinking`, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'why? [sim:thinking] [sim:chunks=3]' }] });
    let reasoning = '';
    let content = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? '';
      content += delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(reasoning).to.equal('The user wants their words echoed back. I will repeat them.');
    expect(content).to.equal('Echo: why?');
    expect(usage?.completion_tokens).to.be.a('number');
    expect(anthropicCalls(sim)[0].body).to.deep.include({ model: MODEL, thinking: { type: 'enabled', budget_tokens: 16000 }, max_tokens: 32000 });
  });

  it('openai SDK: an image and a PDF become image and document blocks', async () => {
    const completion = await openai.chat.completions.create({
      model: MODEL,
      messages: [{
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQKJcfsj6IK' } },
          { type: 'text', text: 'what is this' },
        ],
      }],
    });
    expect(completion.choices[0].message.content).to.equal('Echo: what is this');
    const blocks = (anthropicCalls(sim)[0].body as { messages: Array<{ content: Array<{ type: string; source: Record<string, string> }> }> }).messages[0].content;
    expect(blocks.map((b) => b.type)).to.deep.equal(['image', 'document', 'text']);
    expect(blocks[0].source).to.deep.equal({ type: 'base64', media_type: 'image/png', data: PNG });
    expect(blocks[1].source).to.deep.include({ type: 'base64', media_type: 'application/pdf' });
  });

  it('openai SDK: audio input answers 415 pointing at the messages endpoint', async () => {
    const error = await openai.chat.completions
      .create({ model: MODEL, messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }] }] })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).to.equal(415);
    expect((error as Error).message).to.include('/claude/v1/messages takes richer files');
    expect(anthropicCalls(sim)).to.have.length(0);
  });

  it('Responses and Gemini clients: a refused audio part is named by its place in their own request, not in the Messages body', async () => {
    const responsesError = await openai.responses
      .create({ model: MODEL, input: [{ role: 'user', content: [{ type: 'input_text', text: 'hear' }, { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }] }] } as never)
      .catch((e: unknown) => e);
    expect(responsesError).to.be.instanceOf(OpenAI.APIError);
    expect((responsesError as InstanceType<typeof OpenAI.APIError>).status).to.equal(415);
    expect((responsesError as InstanceType<typeof OpenAI.APIError>).param).to.equal('input[0].content[1]');

    const gemini = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${gw.url}/claude` } });
    const geminiError = await gemini.models
      .generateContent({
        model: MODEL,
        contents: [
          { role: 'user', parts: [{ text: 'first' }] },
          { role: 'model', parts: [{ text: 'ok' }] },
          { role: 'user', parts: [{ text: 'hear' }, { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } }] },
        ],
      })
      .catch((e: unknown) => e);
    expect(geminiError).to.be.instanceOf(ApiError);
    expect((geminiError as ApiError).status).to.equal(415);
    expect((geminiError as Error).message).to.include('contents[2].parts[1]: audio input (audio/wav)');
    expect(anthropicCalls(sim)).to.have.length(0);
  });

  it('openai SDK: tools — a tool call, then the tool result answered', async () => {
    const first = await openai.chat.completions.create({ model: MODEL, tools: [WEATHER], messages: [{ role: 'user', content: 'weather? [sim:tool]' }] });
    const call = first.choices[0].message.tool_calls?.[0];
    expect(first.choices[0].finish_reason).to.equal('tool_calls');
    expect(call?.type === 'function' ? call.function : undefined).to.deep.include({ name: 'get_weather', arguments: '{"city":"x"}' });
    const second = await openai.chat.completions.create({
      model: MODEL,
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'weather? [sim:tool]' }, first.choices[0].message, { role: 'tool', tool_call_id: call?.id ?? '', content: 'sunny' }],
    });
    expect(second.choices[0].message.content).to.equal('Tool said: sunny');
  });

  it('openai SDK: thinking signatures survive three turns of tool use through chat completions', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'plan a trip [sim:thinking] [sim:tool]' }];
    const ask = () => openai.chat.completions.create({ model: `${MODEL}-thinking`, tools: [WEATHER], messages });

    const first = await ask();
    const firstCall = first.choices[0].message.tool_calls?.[0];
    expect(firstCall?.id).to.match(/^toolu_/);
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: firstCall?.id ?? '', content: 'sunny [sim:thinking]' });

    const second = await ask();
    expect(second.choices[0].message.content).to.equal('Tool said: sunny');
    const [replayed] = assistantTurns(anthropicCalls(sim)[1]);
    expect(replayed.map((b) => b.type)).to.deep.equal(['thinking', 'tool_use']);
    // The simulator signs thinking as base64("sim-signature-<n>"); the chat client never saw it.
    expect(Buffer.from(String(replayed[0].signature), 'base64').toString()).to.match(/^sim-signature-\d+$/);
    expect(replayed[0].thinking).to.equal('The user wants their words echoed back. I will repeat them.');
    messages.push(second.choices[0].message, { role: 'user', content: 'and tomorrow? [sim:thinking] [sim:tool]' });

    const third = await ask();
    const thirdCall = third.choices[0].message.tool_calls?.[0];
    expect(thirdCall?.id).to.match(/^toolu_/).and.not.equal(firstCall?.id);
    const turns = assistantTurns(anthropicCalls(sim)[2]);
    expect(turns[0]).to.deep.equal(replayed);
    messages.push(third.choices[0].message, { role: 'tool', tool_call_id: thirdCall?.id ?? '', content: 'rain' });

    const fourth = await ask();
    expect(fourth.choices[0].message.content).to.equal('Tool said: rain');
    const last = assistantTurns(anthropicCalls(sim)[3]);
    expect(last.map((turn) => turn.map((b) => b.type))).to.deep.equal([['thinking', 'tool_use'], ['text'], ['thinking', 'tool_use']]);
    expect(last[2][0].signature).to.be.a('string').and.not.equal(replayed[0].signature);
  });

  it('lists models with -thinking variants', async () => {
    const list = await openai.models.list();
    const ids = list.data.map((m) => m.id);
    expect(ids).to.include.members(['claude-sonnet-4-6', 'claude-sonnet-4-6-thinking', 'claude-haiku-4-5-thinking']);
  });
});

describe('e2e: session keys against the simulated claude.ai (claude plugin)', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let dir: string;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), 'gateway-claude-'));
  });
  after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => sim.reset());

  it('exchanges the session key, calls with the OAuth token, refreshes after a 401, and keeps the refreshed token across a restart', async () => {
    const store = { driver: 'sqlite' as const, path: path.join(dir, 'restart.db') };
    const first = await startGateway(claudePlatform(sim, [{ sessionKey: SESSION_KEY }]), { store });
    const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${first.url}/claude`, maxRetries: 0 });
    try {
      const message = await client.messages.create({ model: MODEL, max_tokens: 32, messages: [{ role: 'user', content: 'via oauth' }] });
      expect(message.content).to.deep.equal([{ type: 'text', text: 'Echo: via oauth' }]);
      const flow = oauthCalls(sim);
      expect(flow).to.have.length(3);
      expect(flow[0]).to.equal('/api/organizations');
      expect(flow[1]).to.match(/^\/v1\/oauth\/[0-9a-f-]{36}\/authorize$/);
      expect(flow[2]).to.equal('token:authorization_code');
      const call = anthropicCalls(sim)[0];
      expect(String(call.headers.authorization)).to.match(/^Bearer sk-ant-oat01-sim/);
      expect(call.headers['anthropic-beta']).to.equal('oauth-2025-04-20');

      sim.claudeAi.expireAccessTokens();
      sim.reset();
      const again = await client.messages.create({ model: MODEL, max_tokens: 32, messages: [{ role: 'user', content: 'after expiry' }] });
      expect(again.content).to.deep.equal([{ type: 'text', text: 'Echo: after expiry' }]);
      expect(oauthCalls(sim)).to.deep.equal(['token:refresh_token']);
      const [refused, retried] = anthropicCalls(sim);
      expect(refused.headers.authorization).not.to.equal(retried.headers.authorization);
    } finally {
      await first.close();
    }

    const refreshedToken = anthropicCalls(sim).at(-1)?.headers.authorization;
    sim.reset();
    const second = await startGateway(claudePlatform(sim, [{ sessionKey: SESSION_KEY }]), { store });
    try {
      const client2 = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${second.url}/claude`, maxRetries: 0 });
      const message = await client2.messages.create({ model: MODEL, max_tokens: 32, messages: [{ role: 'user', content: 'after restart' }] });
      expect(message.content).to.deep.equal([{ type: 'text', text: 'Echo: after restart' }]);
      expect(oauthCalls(sim)).to.deep.equal([]);
      expect(anthropicCalls(sim)[0].headers.authorization).to.equal(refreshedToken);
      const view = (await (await fetch(`${second.url}/admin/credentials/claude`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } })).json()) as { credentials: Array<{ kind: string; expiresAt?: string }> };
      expect(view.credentials[0].kind).to.equal('sessionKey');
      expect(Date.parse(view.credentials[0].expiresAt ?? '')).to.be.greaterThan(Date.now());
    } finally {
      await second.close();
    }
  });

  it('keeps serving from the API key when the session key is refused, and shows why', async () => {
    const gw = await startGateway(claudePlatform(sim, [{ sessionKey: 'sk-ant-sid01-invalid-session-key-0002' }, { apiKey: API_KEY }]));
    try {
      const openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude/v1`, maxRetries: 0 });
      for (const text of ['one', 'two']) {
        const completion = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: text }] });
        expect(completion.choices[0].message.content).to.equal(`Echo: ${text}`);
      }
      expect(anthropicCalls(sim).map((r) => r.headers['x-api-key'])).to.deep.equal([API_KEY, API_KEY]);
      const view = (await (await fetch(`${gw.url}/admin/credentials/claude`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } })).json()) as { credentials: Array<Record<string, string>> };
      expect(view.credentials[0]).to.deep.include({ kind: 'sessionKey', state: 'invalid' });
      expect(view.credentials[0].lastError).to.include('Invalid authorization');
    } finally {
      await gw.close();
    }
  });

  it('refreshes a short-lived token before it expires', async () => {
    const shortSim = await startSimulator({ port: 0, oauthTokenTtlSeconds: 1 });
    const gw = await startGateway(claudePlatform(shortSim, [{ sessionKey: SESSION_KEY }]));
    try {
      const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude`, maxRetries: 0 });
      await client.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'a' }] });
      const expiry = async () => ((await (await fetch(`${gw.url}/admin/credentials/claude`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } })).json()) as { credentials: Array<Record<string, string>> }).credentials[0].expiresAt;
      const firstExpiry = await expiry();
      await new Promise((resolve) => setTimeout(resolve, 600));
      // Still valid: served with the current token while the refresh runs in the background.
      await client.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'b' }] });
      for (let i = 0; i < 100 && (await expiry()) === firstExpiry; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      await client.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'c' }] });
      expect(oauthCalls(shortSim).at(-1)).to.equal('token:refresh_token');
      // No 401 was needed: the refresh happened before the token ran out.
      const statuses = anthropicCalls(shortSim).map((r) => r.headers.authorization);
      expect(statuses).to.have.length(3);
      expect(statuses[1]).to.equal(statuses[0]);
      expect(statuses[2]).not.to.equal(statuses[0]);
    } finally {
      await gw.close();
      await shortSim.close();
    }
  });
});
