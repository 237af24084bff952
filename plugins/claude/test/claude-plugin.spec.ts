import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import { Stage, type UpstreamRequest } from '@gateway/core';
import { fixtureBytes, fixtureJson, fixtureText } from '../../../test/helpers/fixtures';
import { startGateway, TEST_ADMIN_KEY, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { SSE, startFakeUpstream, unevenChunks, type FakeUpstream } from './helpers/fake-upstream';

const API_KEY = 'sk-ant-api03-upstream-secret-000000000001';
const SECOND_KEY = 'sk-ant-api03-upstream-secret-000000000002';

function post(url: string, body: string | object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** `data:` payloads of a chat-completions stream. */
function chatChunks(text: string): Array<Record<string, unknown> | '[DONE]'> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6))
    .map((data) => (data === '[DONE]' ? '[DONE]' : (JSON.parse(data) as Record<string, unknown>)));
}

describe('claude plugin: native passthrough', () => {
  let upstream: FakeUpstream;
  let gw: RunningGateway;
  before(async () => {
    upstream = await startFakeUpstream();
    gw = await startGateway({ claude: { plugin: 'claude', baseUrl: upstream.url, credentials: [{ apiKey: API_KEY }] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  it('forwards a messages request and its answer byte for byte, swapping only the credential', async () => {
    // Odd spacing and key order must survive: the body is never re-serialised.
    const requestBytes = Buffer.from(fixtureText('anthropic-messages/request-basic.json').replace('"model"', '"model" ').concat('\n'));
    const responseBytes = fixtureBytes('anthropic-messages/response-basic.json');
    upstream.queue({ status: 200, headers: { 'request-id': 'req_1', 'anthropic-organization-id': 'org-secret' }, body: responseBytes });

    const res = await post(`${gw.url}/claude/v1/messages?beta=true`, requestBytes.toString('utf8'), {
      authorization: '',
      'x-api-key': TEST_LICENSE,
      'anthropic-version': '2026-10-21',
      'anthropic-beta': 'interleaved-thinking-2025-05-14,context-management-2025-06-27',
    });

    expect(res.status).to.equal(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(responseBytes)).to.equal(true);
    expect(res.headers.get('request-id')).to.equal('req_1');
    expect(res.headers.get('anthropic-organization-id')).to.equal(null);
    const seen = upstream.seen[0];
    expect(seen.url).to.equal('/v1/messages?beta=true');
    expect(seen.raw.equals(requestBytes)).to.equal(true);
    expect(seen.headers['x-api-key']).to.equal(API_KEY);
    expect(seen.headers.authorization).to.equal(undefined);
    expect(seen.headers['anthropic-version']).to.equal('2026-10-21');
    expect(seen.headers['anthropic-beta']).to.equal('interleaved-thinking-2025-05-14,context-management-2025-06-27');
    expect(JSON.stringify(seen.headers)).not.to.include(TEST_LICENSE);
  });

  it('streams a thinking answer unchanged, split at uneven boundaries', async () => {
    const stream = fixtureBytes('anthropic-messages/stream-thinking.sse');
    upstream.queue({ status: 200, headers: SSE, body: unevenChunks(stream, 11) });
    const res = await post(`${gw.url}/claude/v1/messages`, fixtureText('anthropic-messages/request-thinking.json').replace('{', '{"stream": true,'), {
      'anthropic-version': '2023-06-01',
    });
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(Buffer.from(await res.arrayBuffer()).equals(stream)).to.equal(true);
  });

  it('passes a mid-stream overloaded_error through as the upstream sent it', async () => {
    const stream = fixtureBytes('anthropic-messages/stream-error.sse');
    upstream.queue({ status: 200, headers: SSE, body: unevenChunks(stream, 5) });
    const res = await post(`${gw.url}/claude/v1/messages`, { model: 'claude-sonnet-4-6', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
    expect(Buffer.from(await res.arrayBuffer()).equals(stream)).to.equal(true);
  });

  it('passes count_tokens through and sends anthropic-version 2023-06-01 when the client sent none', async () => {
    upstream.queue({ status: 200, body: '{"input_tokens":14}' });
    const body = '{"model":"claude-sonnet-4-6","messages":[{"role":"user","content":"count me"}]}';
    const res = await post(`${gw.url}/claude/v1/messages/count_tokens`, body);
    expect(await res.text()).to.equal('{"input_tokens":14}');
    expect(upstream.seen[0].url).to.equal('/v1/messages/count_tokens');
    expect(upstream.seen[0].raw.toString()).to.equal(body);
    expect(upstream.seen[0].headers['anthropic-version']).to.equal('2023-06-01');
  });

  it('answers an upstream error in the Anthropic shape with its type and message', async () => {
    upstream.queue({ status: 400, body: fixtureBytes('anthropic-messages/error-400.json') });
    const res = await post(`${gw.url}/claude/v1/messages`, { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.include({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });
  });
});

describe('claude plugin: translation', () => {
  let upstream: FakeUpstream;
  let gw: RunningGateway;
  before(async () => {
    upstream = await startFakeUpstream();
    gw = await startGateway({ claude: { plugin: 'claude', baseUrl: upstream.url, credentials: [{ apiKey: API_KEY }], models: ['claude-custom-1'] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  it('turns a chat request with tools into a Messages request (golden) and the tool_use answer into tool_calls', async () => {
    upstream.queue({ status: 200, body: fixtureBytes('anthropic-messages/response-tool-use.json') });
    const request = fixtureJson('openai-chat/request-tools.json');
    const res = await post(`${gw.url}/claude/v1/chat/completions`, { ...request, model: 'claude-sonnet-4-6', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi.' }, { role: 'user', content: "What's the weather in Paris?" }] }, { 'anthropic-version': '2026-10-21' });
    expect(res.status).to.equal(200);

    const seen = upstream.seen[0];
    expect(seen.url).to.equal('/v1/messages');
    expect(seen.headers['anthropic-version']).to.equal('2023-06-01');
    expect(seen.headers['x-api-key']).to.equal(API_KEY);
    const tool = (request.tools as Array<{ function: { name: string; description: string; parameters: object } }>)[0].function;
    expect(seen.json).to.deep.equal({
      model: 'claude-sonnet-4-6',
      max_tokens: 32000,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi.' }, { type: 'text', text: "What's the weather in Paris?" }] }],
      tools: [{ name: tool.name, description: tool.description, input_schema: tool.parameters }],
      tool_choice: { type: 'auto' },
      // Automatic prompt caching: a chat client sends no markers (OpenAI caches on its own).
      cache_control: { type: 'ephemeral' },
    });

    const body = (await res.json()) as { choices: Array<{ finish_reason: string; message: { content: string; tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> } }> };
    expect(body.choices[0].finish_reason).to.equal('tool_calls');
    expect(body.choices[0].message.content).to.equal("I'll check the current weather in Paris for you.");
    expect(body.choices[0].message.tool_calls[0]).to.deep.include({ id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn' });
    expect(JSON.parse(body.choices[0].message.tool_calls[0].function.arguments)).to.deep.equal({ city: 'Paris', unit: 'celsius' });
  });

  it('maps chat tool results back to tool_result blocks, keeping parallel calls in order', async () => {
    upstream.queue({ status: 200, body: fixtureBytes('anthropic-messages/response-basic.json') });
    const request = fixtureJson('openai-chat/request-tool-result.json');
    await post(`${gw.url}/claude/v1/chat/completions`, { ...request, model: 'claude-sonnet-4-6' });
    const sent = upstream.seen[0].json as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(sent.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'user']);
    expect(sent.messages[1].content.map((b) => [b.type, b.id])).to.deep.equal([
      ['tool_use', 'call_Xy8mQ2vR6tLp0sWn4kJd9aBc'],
      ['tool_use', 'call_Hf3nK7pQ1zVx5mRt8yLw2eGu'],
    ]);
    expect(sent.messages[2].content.map((b) => [b.type, b.tool_use_id])).to.deep.equal([
      ['tool_result', 'call_Xy8mQ2vR6tLp0sWn4kJd9aBc'],
      ['tool_result', 'call_Hf3nK7pQ1zVx5mRt8yLw2eGu'],
    ]);
  });

  it('strips -thinking, enables thinking with budget 16000 under max_tokens 32000, and returns reasoning_content', async () => {
    upstream.queue({ status: 200, body: fixtureBytes('anthropic-messages/response-thinking.json') });
    const res = await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-sonnet-4-6-thinking', messages: [{ role: 'user', content: 'Is 1071 divisible by 7?' }] });
    const sent = upstream.seen[0].json as Record<string, unknown>;
    expect(sent).to.deep.include({ model: 'claude-sonnet-4-6', max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 16000 } });
    const body = (await res.json()) as { choices: Array<{ message: { content: string; reasoning_content: string } }> };
    expect(body.choices[0].message.reasoning_content).to.equal('The user asks whether 1071 is divisible by 7. 7 × 153 = 1071, so yes.');
    expect(body.choices[0].message.content).to.equal('Yes — 1071 = 7 × 153.');
  });

  it('keeps the client’s own max_tokens under -thinking (the budget fits under it) and lets its own reasoning setting win', async () => {
    const answer = { status: 200, body: fixtureBytes('anthropic-messages/response-basic.json') };
    upstream.queue(answer, answer, answer, answer);
    await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-opus-4-6-thinking', max_tokens: 8000, messages: [{ role: 'user', content: 'x' }] });
    await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-opus-4-6-thinking', max_tokens: 1000, messages: [{ role: 'user', content: 'x' }] });
    await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-opus-4-5-thinking', reasoning_effort: 'low', messages: [{ role: 'user', content: 'x' }] });
    // A 4.6 model is asked for adaptive thinking at that effort (Anthropic's way for 4.6+; Opus 4.7 refuses budgets).
    await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-opus-4-6-thinking', reasoning_effort: 'low', messages: [{ role: 'user', content: 'x' }] });
    const [fitted, tooSmall, effort, adaptive] = upstream.seen.map((s) => s.json as { max_tokens: number; thinking?: { budget_tokens: number } });
    expect(fitted).to.deep.include({ max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 4000 } });
    expect(tooSmall.max_tokens).to.equal(1000);
    expect(tooSmall).to.not.have.property('thinking');
    expect(effort.thinking?.budget_tokens).to.equal(2048);
    expect(effort.max_tokens).to.equal(32000);
    expect(adaptive).to.deep.include({ max_tokens: 32000, thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
  });

  it("sends a chat client's adaptive thinking to Claude 4.6+ as adaptive, its max_tokens kept; Claude 4.0 (a dated id) gets a budget", async () => {
    const answer = { status: 200, body: fixtureBytes('anthropic-messages/response-basic.json') };
    upstream.queue(answer, answer);
    await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-opus-4-6', max_tokens: 2000, thinking: { type: 'adaptive' }, messages: [{ role: 'user', content: 'x' }] });
    await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-opus-4-20250514', max_tokens: 2000, thinking: { type: 'adaptive' }, messages: [{ role: 'user', content: 'x' }] });
    const [current, dated] = upstream.seen.map((s) => s.json as Record<string, unknown>);
    expect(current).to.deep.include({ max_tokens: 2000, thinking: { type: 'adaptive' } });
    expect(dated.thinking).to.deep.include({ type: 'enabled' });
  });

  it('streams a thinking answer to a chat client as reasoning_content then content deltas, ending with [DONE]', async () => {
    upstream.queue({ status: 200, headers: SSE, body: unevenChunks(fixtureBytes('anthropic-messages/stream-thinking.sse'), 13) });
    const res = await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-sonnet-4-6-thinking', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Is 1071 divisible by 7?' }] });
    const chunks = chatChunks(await res.text());
    expect(chunks.at(-1)).to.equal('[DONE]');
    const deltas = chunks.slice(0, -1).map((c) => ((c as { choices: Array<{ delta?: Record<string, string> }> }).choices[0]?.delta ?? {}));
    expect(deltas.map((d) => d.reasoning_content ?? '').join('')).to.equal('The user asks whether 1071 is divisible by 7. 7 × 153 = 1071, so yes.');
    expect(deltas.map((d) => d.content ?? '').join('')).to.match(/^Yes/);
    expect((upstream.seen[0].json as { stream: boolean }).stream).to.equal(true);
  });

  it('maps a mid-stream overloaded_error to an error chunk for a chat client', async () => {
    upstream.queue({ status: 200, headers: SSE, body: unevenChunks(fixtureBytes('anthropic-messages/stream-error.sse'), 9) });
    const res = await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-sonnet-4-6', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const chunks = chatChunks(await res.text());
    const last = chunks.at(-1) as { error?: { message: string } };
    expect(last.error?.message).to.equal('Overloaded');
  });

  it('answers 502, not a 200 stream, when the upstream answers a stream request with JSON', async () => {
    upstream.queue({ status: 200, headers: { 'content-type': 'application/json' }, body: fixtureBytes('anthropic-messages/response-basic.json') });
    const res = await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-sonnet-4-6', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).to.equal(502);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.equal('upstream answered a stream request with application/json, not a stream');
  });

  it('accepts images and PDFs from chat clients and maps them to image and document blocks', async () => {
    upstream.queue({ status: 200, body: fixtureBytes('anthropic-messages/response-basic.json') });
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';
    const res = await post(`${gw.url}/claude/v1/chat/completions`, {
      model: 'claude-sonnet-4-6',
      messages: [{
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          { type: 'file', file: { filename: 'doc.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' } },
          { type: 'text', text: 'Describe.' },
        ],
      }],
    });
    expect(res.status).to.equal(200);
    const blocks = (upstream.seen[0].json as { messages: Array<{ content: Array<Record<string, unknown>> }> }).messages[0].content;
    expect(blocks.map((b) => b.type)).to.deep.equal(['image', 'image', 'document', 'text']);
    expect(blocks[0].source).to.deep.equal({ type: 'base64', media_type: 'image/png', data: png });
    expect(blocks[1].source).to.deep.equal({ type: 'url', url: 'https://example.com/cat.jpg' });
    expect(blocks[2].source).to.deep.equal({ type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' });
  });

  const refused = [
    { name: 'audio', part: { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } } },
    { name: 'a text file', part: { type: 'file', file: { filename: 'notes.txt', file_data: 'data:text/plain;base64,aGVsbG8=' } } },
    { name: 'a TIFF image', part: { type: 'image_url', image_url: { url: 'data:image/tiff;base64,SUkqAA==' } } },
  ];
  for (const { name, part } of refused) {
    it(`answers 415 for ${name} from a chat client, pointing at the messages endpoint, without calling upstream`, async () => {
      const res = await post(`${gw.url}/claude/v1/chat/completions`, {
        model: 'claude-sonnet-4-6',
        messages: [{ role: 'system', content: 's' }, { role: 'user', content: [{ type: 'text', text: 'look' }, part] }],
      });
      expect(res.status).to.equal(415);
      const body = (await res.json()) as { error: { message: string; param: string } };
      expect(body.error.param).to.equal('messages[1].content[1]');
      expect(body.error.message).to.include('/claude/v1/messages takes richer files');
      expect(upstream.seen).to.have.length(0);
    });
  }

  it('translates a Responses request and answers in the Responses shape', async () => {
    upstream.queue({ status: 200, body: fixtureBytes('anthropic-messages/response-basic.json') });
    const res = await post(`${gw.url}/claude/v1/responses`, { model: 'claude-sonnet-4-6', instructions: 'Be brief.', input: 'Say hello.' });
    const body = (await res.json()) as { object: string; output_text?: string; output: Array<{ type: string; content?: Array<{ text: string }> }> };
    expect(body.object).to.equal('response');
    const basic = fixtureJson<{ content: Array<{ text: string }> }>('anthropic-messages/response-basic.json');
    expect(body.output.find((item) => item.type === 'message')?.content?.[0].text).to.equal(basic.content[0].text);
    expect(upstream.seen[0].json).to.deep.include({ system: [{ type: 'text', text: 'Be brief.' }], max_tokens: 32000 });
  });

  it('translates Gemini generateContent and counts Gemini tokens with the upstream counter', async () => {
    upstream.queue({ status: 200, body: fixtureBytes('anthropic-messages/response-basic.json') }, { status: 200, body: '{"input_tokens":9}' });
    const generate = await post(`${gw.url}/claude/v1beta/models/claude-sonnet-4-6:generateContent`, { contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }] });
    const answer = (await generate.json()) as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> };
    expect(answer.candidates[0].content.parts[0].text).to.be.a('string').and.not.equal('');
    const count = await post(`${gw.url}/claude/v1beta/models/claude-sonnet-4-6:countTokens`, { contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }] });
    expect(await count.json()).to.deep.equal({ totalTokens: 9 });
    expect(upstream.seen[1].url).to.equal('/v1/messages/count_tokens');
    expect(upstream.seen[1].json).to.deep.equal({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }] });
    // Empty contents, which Gemini counts: estimated here, as Anthropic's counter needs a message.
    const empty = await post(`${gw.url}/claude/v1beta/models/claude-sonnet-4-6:countTokens`, { contents: [], systemInstruction: { parts: [{ text: 'Be brief.' }] } });
    expect(empty.status).to.equal(200);
    expect(((await empty.json()) as { totalTokens: number }).totalTokens).to.be.a('number');
    expect(upstream.seen).to.have.length(2);
  });

  it('counts Gemini tokens of a request with code execution under the beta flag the tool needs, as generateContent sends it', async () => {
    upstream.queue({ status: 200, body: '{"input_tokens":120}' });
    const count = await post(`${gw.url}/claude/v1beta/models/claude-sonnet-4-6:countTokens`, {
      generateContentRequest: { contents: [{ role: 'user', parts: [{ text: 'Compute 2+2 in Python.' }] }], tools: [{ codeExecution: {} }] },
    });
    expect(await count.json()).to.deep.equal({ totalTokens: 120 });
    expect(upstream.seen[0].url).to.equal('/v1/messages/count_tokens');
    expect((upstream.seen[0].json as { tools: Array<{ type: string }> }).tools[0].type).to.equal('code_execution_20250825');
    expect(upstream.seen[0].headers['anthropic-beta']).to.equal('code-execution-2025-08-25');
  });

  it('maps an upstream error to the client family, keeping the message', async () => {
    upstream.queue({ status: 400, body: fixtureBytes('anthropic-messages/error-400.json') });
    const res = await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error).to.deep.include({ message: 'max_tokens: Field required', type: 'invalid_request_error' });
  });

  it('lists the upstream models in the OpenAI shape with -thinking variants and the configured extras', async () => {
    upstream.queue({
      status: 200,
      body: JSON.stringify({ data: [{ type: 'model', id: 'claude-sonnet-4-6', display_name: 'Claude Sonnet 4.6', created_at: '2026-02-17T00:00:00Z' }], has_more: false }),
    });
    const res = await fetch(`${gw.url}/claude/v1/models`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
    const body = (await res.json()) as { object: string; data: Array<{ id: string; object: string; created: number }> };
    expect(body.object).to.equal('list');
    expect(body.data.map((m) => m.id)).to.deep.equal(['claude-sonnet-4-6', 'claude-sonnet-4-6-thinking', 'claude-custom-1']);
    expect(body.data[0]).to.deep.include({ object: 'model', created: Date.parse('2026-02-17T00:00:00Z') / 1000 });
    expect(upstream.seen[0].url).to.equal('/v1/models?limit=1000');
    expect(upstream.seen[0].headers['x-api-key']).to.equal(API_KEY);
  });
});

/** The request bodies the gateway hands to claude's upstreamCall taps, seen by a tap that runs first. */
function probeSentBodies(gw: RunningGateway): Buffer[] {
  const sent: Buffer[] = [];
  gw.gateway.runtime.hooks.upstreamCall.for('claude').tapPromise({ name: 'body-probe', stage: Stage.BEFORE_PLATFORM }, async (request: UpstreamRequest) => {
    if (request.body) sent.push(request.body);
    return undefined;
  });
  return sent;
}

describe('claude plugin: API key rotation', () => {
  let upstream: FakeUpstream;
  let gw: RunningGateway;
  const basic = fixtureBytes('anthropic-messages/response-basic.json');
  const admin = async (): Promise<Array<Record<string, unknown>>> => {
    const res = await fetch(`${gw.url}/admin/credentials/claude`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
    return ((await res.json()) as { credentials: Array<Record<string, unknown>> }).credentials;
  };
  const ask = (): Promise<Response> => post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] });

  beforeEach(async () => {
    upstream = await startFakeUpstream();
    gw = await startGateway({ claude: { plugin: 'claude', baseUrl: upstream.url, credentials: [{ apiKey: API_KEY }, { apiKey: SECOND_KEY }] } });
  });
  afterEach(async () => {
    await gw.close();
    await upstream.close();
  });

  it('spreads calls round-robin over the keys', async () => {
    upstream.fallback({ status: 200, body: basic });
    for (let i = 0; i < 4; i += 1) await ask();
    expect(upstream.seen.map((s) => s.headers['x-api-key'])).to.deep.equal([API_KEY, SECOND_KEY, API_KEY, SECOND_KEY]);
  });

  it('puts a 429 key in cooldown until its rate-limit reset and retries on the other key', async () => {
    const reset = new Date(Date.now() + 90_000).toISOString();
    upstream.queue({ status: 429, headers: { 'anthropic-ratelimit-input-tokens-remaining': '0', 'anthropic-ratelimit-input-tokens-reset': reset }, body: fixtureBytes('anthropic-messages/error-429.json') });
    upstream.fallback({ status: 200, body: basic });
    const res = await ask();
    expect(res.status).to.equal(200);
    expect(upstream.seen.map((s) => s.headers['x-api-key'])).to.deep.equal([API_KEY, SECOND_KEY]);
    await ask();
    expect(upstream.seen[2].headers['x-api-key']).to.equal(SECOND_KEY);
    const [first] = await admin();
    expect(first).to.deep.include({ kind: 'apiKey', state: 'cooling_down', cooldownUntil: new Date(Date.parse(reset)).toISOString() });
    expect(first.masked).to.equal('...0001');
  });

  it('sends a long conversation whole on every attempt, and releases its bytes once the final answer has come', async () => {
    const sent = probeSentBodies(gw);
    const raw = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'a long conversation '.repeat(20_000) }] });
    upstream.queue({ status: 429, headers: { 'retry-after': '30' }, body: fixtureBytes('anthropic-messages/error-429.json') });
    upstream.fallback({ status: 200, body: basic });
    const res = await post(`${gw.url}/claude/v1/messages`, raw, { 'anthropic-version': '2023-06-01' });
    expect(res.status).to.equal(200);
    expect(upstream.seen.map((s) => s.raw.toString())).to.deep.equal([raw, raw]);
    expect(sent).to.have.length(1);
    expect(sent[0].length, 'released after the answer').to.equal(0);
  });

  it('translated: sends the encoded long conversation whole on every attempt, and releases it after the answer', async () => {
    const sent = probeSentBodies(gw);
    const content = 'a long conversation '.repeat(20_000);
    upstream.queue({ status: 429, headers: { 'retry-after': '30' }, body: fixtureBytes('anthropic-messages/error-429.json') });
    upstream.fallback({ status: 200, body: basic });
    const res = await post(`${gw.url}/claude/v1/chat/completions`, { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content }] });
    expect(res.status).to.equal(200);
    expect(upstream.seen).to.have.length(2);
    expect(upstream.seen[1].raw.equals(upstream.seen[0].raw)).to.equal(true);
    expect(JSON.stringify(upstream.seen[1].json)).to.include(content);
    expect(sent).to.have.length(1);
    expect(sent[0].length, 'released after the answer').to.equal(0);
  });

  it('retries a 529 on another key and sets none aside (overload is the platform\'s, not the key\'s)', async () => {
    upstream.queue({ status: 529, headers: { 'retry-after': '20' }, body: fixtureBytes('anthropic-messages/error-529.json') });
    upstream.fallback({ status: 200, body: basic });
    expect((await ask()).status).to.equal(200);
    expect(upstream.seen).to.have.length(2);
    expect((await admin()).map((credential) => credential.state)).to.deep.equal(['healthy', 'healthy']);
  });

  it('limit-marks a key out of credit (400 "credit balance is too low", 402 billing_error) and answers from another', async () => {
    const noCredit = { type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.' } };
    upstream.queue({ status: 400, body: JSON.stringify(noCredit) });
    upstream.fallback({ status: 200, body: basic });
    expect((await ask()).status).to.equal(200);
    expect(upstream.seen).to.have.length(2);
    expect((await admin()).map((credential) => credential.state)).to.deep.equal(['limit_marked', 'healthy']);
  });

  it('limit-marks a key answered 402 billing_error, and answers from another', async () => {
    upstream.queue({ status: 402, body: JSON.stringify({ type: 'error', error: { type: 'billing_error', message: 'billing issue' } }) });
    upstream.fallback({ status: 200, body: basic });
    expect((await ask()).status).to.equal(200);
    expect((await admin()).map((credential) => credential.state)).to.deep.equal(['limit_marked', 'healthy']);
  });

  it('answers 429 with retry-after when every key is rate-limited', async () => {
    upstream.fallback({ status: 429, headers: { 'retry-after': '30' }, body: fixtureBytes('anthropic-messages/error-429.json') });
    const res = await ask();
    expect(res.status).to.equal(429);
    expect(Number(res.headers.get('retry-after'))).to.be.within(25, 31);
    const body = (await res.json()) as { error: { type: string; message: string } };
    expect(body.error.type).to.equal('rate_limit_error');
    expect(body.error.message).to.match(/^every credential of platform "claude" is rate-limited; retry later \(upstream: This request would exceed the rate limit/);
    // A wait of half a minute is left to the SDKs' own retries.
    expect(res.headers.get('x-should-retry')).to.equal(null);
  });

  it('tells the SDKs not to sleep through a wait of over a minute (x-should-retry: false): the Anthropic SDK raises at once', async () => {
    upstream.fallback({ status: 429, headers: { 'retry-after': '3600' }, body: fixtureBytes('anthropic-messages/error-429.json') });
    const res = await ask();
    expect(res.status).to.equal(429);
    expect(Number(res.headers.get('retry-after'))).to.be.within(3590, 3600);
    expect(res.headers.get('x-should-retry')).to.equal('false');
    const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude`, maxRetries: 2 });
    const started = Date.now();
    const error = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Anthropic.RateLimitError);
    expect(Date.now() - started).to.be.below(2000);
  });

  it('when every key is overloaded, answers the overload (529 overloaded_error to a Messages client, 503 to a chat client), and the next request reaches the upstream', async () => {
    upstream.fallback({ status: 529, headers: { 'retry-after': '20' }, body: fixtureBytes('anthropic-messages/error-529.json') });
    const res = await post(`${gw.url}/claude/v1/messages`, { model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
    expect(res.status).to.equal(529);
    expect(Number(res.headers.get('retry-after'))).to.be.within(15, 21);
    expect(await res.json()).to.deep.include({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(upstream.seen).to.have.length(2);
    // The SDK's own class for it, as against Anthropic (a 503 was its ServiceUnavailableError).
    const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude`, maxRetries: 0 });
    const error = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Anthropic.OverloadedError);
    upstream.seen.splice(2);
    const chat = await ask();
    expect(chat.status).to.equal(503);
    expect(((await chat.json()) as { error: { message: string } }).error.message).to.equal('Overloaded');
    expect(upstream.seen).to.have.length(4);
  });

  it('when every key is refused, answers 503 quoting the upstream refusal with the key masked', async () => {
    upstream.fallback({ status: 401, body: JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${SECOND_KEY}` } }) });
    const res = await ask();
    expect(res.status).to.equal(503);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).to.match(/^no healthy credential is left on platform "claude" \(upstream: invalid x-api-key /);
    expect(body.error.message).to.not.include(SECOND_KEY);
    // Only an operator can end it: the SDKs (Claude Code's too) are told not to retry.
    expect(res.headers.get('x-should-retry')).to.equal('false');
  });

  it('marks a key whose answer is 401 invalid, serves from the other, and masks the key in the reason', async () => {
    upstream.queue({ status: 401, body: JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${API_KEY}` } }) });
    upstream.fallback({ status: 200, body: basic });
    expect((await ask()).status).to.equal(200);
    const [first, second] = await admin();
    expect(first).to.deep.include({ state: 'invalid' });
    expect(String(first.lastError)).to.include('invalid x-api-key').and.not.include(API_KEY);
    expect(second.state).to.equal('healthy');
  });

  it('on a 403, tries the other key without marking either, and a model no key may use leaves both serving', async () => {
    const denied = JSON.stringify({ type: 'error', error: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' } });
    upstream.queue({ status: 403, body: denied });
    upstream.fallback({ status: 200, body: basic });
    expect((await ask()).status).to.equal(200);
    expect(upstream.seen.map((s) => s.headers['x-api-key'])).to.deep.equal([API_KEY, SECOND_KEY]);

    upstream.queue({ status: 403, body: denied }, { status: 403, body: denied });
    const res = await post(`${gw.url}/claude/v1/messages`, { model: 'claude-opus-restricted', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
    expect(res.status).to.equal(403);
    expect(await res.json()).to.deep.equal(JSON.parse(denied));
    expect((await admin()).map((credential) => credential.state)).to.deep.equal(['healthy', 'healthy']);
    expect((await ask()).status).to.equal(200);
  });

  it('does not retry a request the upstream refused as invalid', async () => {
    upstream.queue({ status: 400, body: fixtureBytes('anthropic-messages/error-400.json') });
    upstream.fallback({ status: 200, body: basic });
    expect((await ask()).status).to.equal(400);
    expect(upstream.seen).to.have.length(1);
  });
});
