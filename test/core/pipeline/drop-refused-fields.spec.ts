import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import OpenAI from 'openai';
import type { UpstreamRequest } from '../../../core/hooks/plugin-api';
import { optionalFieldsIn, withoutFields } from '../../../core/pipeline/drop-refused-fields';
import { chatCompletionBody } from '../../helpers/chat-completion';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../../helpers/start-raw-upstream';

const COMPLETION = chatCompletionBody('done', 'gpt-4.1');

describe('a translated chat call the upstream refuses for a field the translation added', () => {
  let upstream: RawUpstream;
  let gw: RunningGateway;
  let seen: Array<Record<string, unknown>> = [];
  /** Refuses a body carrying `field` with `message`, answers any other. */
  const refuse = (field: string, message: string): void =>
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const carries = body.toString().includes(`"${field}"`);
      res.writeHead(carries ? 400 : 200, { 'content-type': 'application/json' });
      res.end(carries ? JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } }) : COMPLETION);
    });
  before(async () => {
    upstream = await startRawUpstream();
    gw = await startGateway({
      openai: { plugin: 'openai', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] },
      // A compatible service without the Responses API: Responses calls are translated to chat.
      chatonly: { plugin: 'openai', baseUrl: upstream.url, responses: 'chat', credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] },
    });
  });
  beforeEach(() => (seen = []));
  after(async () => {
    await gw.close();
    await upstream.close();
  });
  const client = () => new Anthropic({ baseURL: `${gw.url}/openai`, apiKey: TEST_LICENSE, maxRetries: 0 });

  it("sends Claude Code's mid-conversation system message as the user's to a chat template that takes one only first (Qwen on vLLM)", async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as { messages: Array<{ role: string }> };
      seen.push(json);
      const late = json.messages.findIndex((message, i) => message.role === 'system' && i > 0 && json.messages[i - 1].role !== 'system');
      res.writeHead(late >= 0 ? 400 : 200, { 'content-type': 'application/json' });
      res.end(late >= 0 ? JSON.stringify({ object: 'error', message: 'System message must be at the beginning.', type: 'BadRequestError', param: null, code: 400 }) : COMPLETION);
    });
    const ask = () =>
      client().messages.create({
        model: 'qwen3-coder',
        max_tokens: 100,
        system: 'You are Claude Code.',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'Hello.' },
          { role: 'system', content: 'The user switched to plan mode.' } as never,
          { role: 'user', content: 'plan it' },
        ],
      });
    expect((await ask()).content).to.deep.equal([{ type: 'text', text: 'done' }]);
    const roles = (body: Record<string, unknown>) => (body.messages as Array<{ role: string }>).map((message) => message.role);
    expect(seen.map(roles)).to.deep.equal([
      ['system', 'user', 'assistant', 'system', 'user'],
      ['system', 'user', 'assistant', 'user', 'user'],
    ]);
    expect((seen[1].messages as Array<{ content: string }>)[3].content).to.equal('The user switched to plan mode.');
    // Remembered for the model: the next call goes so at once.
    await ask();
    expect(seen).to.have.length(3);
    expect(roles(seen[2])).to.deep.equal(['system', 'user', 'assistant', 'user', 'user']);
  });

  it("drops reasoning_effort for a model without reasoning (Claude Code's adaptive thinking on gpt-4.1)", async () => {
    refuse('reasoning_effort', "Unsupported parameter: 'reasoning_effort' is not supported with this model.");
    const message = await client().messages.create({
      model: 'gpt-4.1',
      max_tokens: 100,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content).to.deep.equal([{ type: 'text', text: 'done' }]);
    expect(seen.map((body) => 'reasoning_effort' in body)).to.deep.equal([true, false]);
  });

  it('drops reasoning_content an upstream calls unsupported, keeping the rest of the conversation', async () => {
    refuse('reasoning_content', "messages.1.assistant.reasoning_content: property 'messages.1.assistant.reasoning_content' is unsupported");
    await client().messages.create({
      model: 'gpt-4.1',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'I should call it', signature: '' }, { type: 'tool_use', id: 'toolu_1', name: 'w', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    });
    const assistant = (body: Record<string, unknown>) => (body.messages as Array<Record<string, unknown>>)[1];
    expect(seen).to.have.length(2);
    expect(assistant(seen[0]).reasoning_content).to.equal('I should call it');
    expect(assistant(seen[1])).to.deep.include({ role: 'assistant', tool_calls: assistant(seen[0]).tool_calls }).and.not.have.property('reasoning_content');
  });

  it('drops each refused field in turn when the upstream names them one at a time', async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as { reasoning_effort?: string; messages: Array<Record<string, unknown>> };
      seen.push(json);
      const refusal = json.reasoning_effort !== undefined ? "Unsupported parameter: 'reasoning_effort'" : json.messages.some((m) => 'reasoning_content' in m) ? "'messages.1.reasoning_content' is unsupported" : undefined;
      res.writeHead(refusal ? 400 : 200, { 'content-type': 'application/json' });
      res.end(refusal ? JSON.stringify({ error: { message: refusal, type: 'invalid_request_error' } }) : COMPLETION);
    });
    await client().messages.create({
      model: 'gpt-4o',
      max_tokens: 3000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'I should call it', signature: '' }, { type: 'tool_use', id: 'toolu_1', name: 'w', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    });
    expect(seen.map((body) => ['reasoning_effort' in body, (body.messages as Array<Record<string, unknown>>).some((m) => 'reasoning_content' in m)])).to.deep.equal([
      [true, true],
      [false, true],
      [false, false],
    ]);
  });

  it('leaves out at once, for that model only, a field the upstream refused before; thinking switched off is reasoning_effort none', async () => {
    refuse('reasoning_effort', "Unsupported parameter: 'reasoning_effort' is not supported with this model.");
    const ask = (model: string) => client().messages.create({ model, max_tokens: 100, thinking: { type: 'disabled' }, messages: [{ role: 'user', content: 'hi' }] });
    await ask('gpt-4.1-mini');
    expect(seen.map((body) => body.reasoning_effort)).to.deep.equal(['none', undefined]);
    await ask('gpt-4.1-mini');
    expect(seen.map((body) => body.reasoning_effort)).to.deep.equal(['none', undefined, undefined]);
    await ask('gpt-4.1-nano');
    expect(seen.map((body) => body.reasoning_effort)).to.deep.equal(['none', undefined, undefined, 'none', undefined]);
  });

  it('drops a refused value for that call only: later calls still carry the effort the client asks for', async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const refused = json.reasoning_effort === 'none';
      res.writeHead(refused ? 400 : 200, { 'content-type': 'application/json' });
      res.end(refused ? JSON.stringify({ error: { message: "Unsupported value: 'reasoning_effort' does not support 'none' with this model.", param: 'reasoning_effort', code: 'unsupported_value' } }) : COMPLETION);
    });
    const ask = (thinking: Anthropic.ThinkingConfigParam) => client().messages.create({ model: 'o3', max_tokens: 20000, thinking, messages: [{ role: 'user', content: 'hi' }] });
    await ask({ type: 'disabled' });
    await ask({ type: 'enabled', budget_tokens: 16000 });
    expect(seen.map((body) => body.reasoning_effort)).to.deep.equal(['none', undefined, 'high']);
  });

  it("moves a refused effort to the nearest one the refusal lists (Codex's minimal on gpt-5.6: low, not the default medium), for that call", async () => {
    const supported = ['none', 'low', 'medium', 'high', 'xhigh'];
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const effort = String(json.reasoning_effort);
      const refused = !supported.includes(effort);
      res.writeHead(refused ? 400 : 200, { 'content-type': 'application/json' });
      const message = `Unsupported value: 'reasoning_effort' does not support '${effort}' with this model. Supported values are: 'none', 'low', 'medium', 'high', and 'xhigh'.`;
      res.end(refused ? JSON.stringify({ error: { message, type: 'invalid_request_error', param: 'reasoning_effort', code: 'unsupported_value' } }) : COMPLETION);
    });
    const responses = new OpenAI({ baseURL: `${gw.url}/chatonly/v1`, apiKey: TEST_LICENSE, maxRetries: 0 });
    await responses.responses.create({ model: 'gpt-5.6', input: 'hi', reasoning: { effort: 'minimal' } });
    await responses.responses.create({ model: 'gpt-5.6', input: 'hi', reasoning: { effort: 'high' } });
    expect(seen.map((body) => body.reasoning_effort)).to.deep.equal(['minimal', 'low', 'high']);
  });

  it("drops stop for a model that refuses the parameter (stop_sequences on o3), from then on; a 400 that only says the word keeps it", async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const refusal = 'stop' in json ? (json.model === 'o3' ? "Unsupported parameter: 'stop' is not supported with this model." : 'Please stop sending tools with this model.') : undefined;
      res.writeHead(refusal ? 400 : 200, { 'content-type': 'application/json' });
      res.end(refusal ? JSON.stringify({ error: { message: refusal, type: 'invalid_request_error', param: 'stop', code: 'unsupported_parameter' } }) : COMPLETION);
    });
    const ask = (model: string) => client().messages.create({ model, max_tokens: 1000, stop_sequences: ['END'], messages: [{ role: 'user', content: 'stop' }] });
    await ask('o3');
    await ask('o3');
    expect(seen.map((body) => body.stop)).to.deep.equal([['END'], undefined, undefined]);
    const error = await ask('gpt-4.1').catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(Anthropic.BadRequestError);
    expect(seen.map((body) => body.stop)).to.deep.equal([['END'], undefined, undefined, ['END']]);
  });

  it("sends the first 4 stop sequences where OpenAI refuses a Gemini client's 5 ('array too long'), for that call", async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const stops = Array.isArray(json.stop) ? json.stop.length : 0;
      const refusal = stops > 4 ? `Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length ${stops} instead.` : undefined;
      res.writeHead(refusal ? 400 : 200, { 'content-type': 'application/json' });
      res.end(refusal ? JSON.stringify({ error: { message: refusal, type: 'invalid_request_error', param: 'stop', code: 'array_above_max_length' } }) : COMPLETION);
    });
    const gemini = await fetch(`${gw.url}/openai/v1beta/models/gpt-4.1:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': TEST_LICENSE },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { stopSequences: ['a', 'b', 'c', 'd', 'e'] } }),
    });
    expect(gemini.status).to.equal(200);
    expect(seen.map((body) => body.stop)).to.deep.equal([['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c', 'd']]);
  });

  it('answers a model that refuses the 5 stop sequences as too many, and then the 4 as a parameter (o4-mini): the call goes without', async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const stops = Array.isArray(json.stop) ? json.stop.length : 0;
      const refusal =
        stops > 4 ? `Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length ${stops} instead.`
        : stops > 0 ? "Unsupported parameter: 'stop' is not supported with this model."
        : undefined;
      res.writeHead(refusal ? 400 : 200, { 'content-type': 'application/json' });
      res.end(refusal ? JSON.stringify({ error: { message: refusal, type: 'invalid_request_error', param: 'stop', code: null } }) : COMPLETION);
    });
    const gemini = await fetch(`${gw.url}/openai/v1beta/models/o4-mini:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': TEST_LICENSE },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { stopSequences: ['a', 'b', 'c', 'd', 'e'] } }),
    });
    expect(gemini.status).to.equal(200);
    expect(seen.map((body) => body.stop)).to.deep.equal([['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c', 'd'], undefined]);
  });

  it("drops top_p and temperature a reasoning model refuses (Gemini CLI's generationConfig on gpt-5)", async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const refusal = 'top_p' in json ? "Unsupported parameter: 'top_p' is not supported with this model." : json.temperature !== undefined && json.temperature !== 1 ? "Unsupported value: 'temperature' does not support 0.5 with this model. Only the default (1) value is supported." : undefined;
      res.writeHead(refusal ? 400 : 200, { 'content-type': 'application/json' });
      res.end(refusal ? JSON.stringify({ error: { message: refusal, type: 'invalid_request_error', param: null, code: 'unsupported_parameter' } }) : COMPLETION);
    });
    const gemini = await fetch(`${gw.url}/openai/v1beta/models/gpt-5:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': TEST_LICENSE },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { temperature: 0.5, topP: 0.95, topK: 64 } }),
    });
    expect(gemini.status).to.equal(200);
    expect(seen.map((body) => [body.top_p, body.temperature])).to.deep.equal([[0.95, 0.5], [undefined, 0.5], [undefined, undefined]]);
  });

  it("keeps the client's temperature for later calls when a 400 names 'temperature' for another reason (a tool schema's property)", async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const schemaError = Array.isArray(json.tools);
      res.writeHead(schemaError ? 400 : 200, { 'content-type': 'application/json' });
      res.end(schemaError ? JSON.stringify({ error: { message: "Invalid schema for function 'thermostat': In context=('properties', 'temperature'), 'minimum' is not permitted.", type: 'invalid_request_error', param: 'tools[0].function.parameters' } }) : COMPLETION);
    });
    const tool: Anthropic.Tool = { name: 'thermostat', input_schema: { type: 'object', properties: { temperature: { type: 'number', minimum: 5 } } } };
    const refused = await client()
      .messages.create({ model: 'gpt-4.1-nano', max_tokens: 10, temperature: 0.3, tools: [tool], messages: [{ role: 'user', content: 'hi' }] } as Anthropic.MessageCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(Anthropic.BadRequestError);
    // This SDK version types no `temperature`; the API (and the gateway) take it.
    await client().messages.create({ model: 'gpt-4.1-nano', max_tokens: 10, temperature: 0, messages: [{ role: 'user', content: 'hi' }] } as Anthropic.MessageCreateParamsNonStreaming);
    // One call without it is tried, as for any refusal naming a field; it is not remembered.
    expect(seen.map((body) => body.temperature)).to.deep.equal([0.3, undefined, 0]);
  });

  it("answers a proxy's own wording of a sampling refusal (LiteLLM: 'cannot both be specified') for that call, not later ones", async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const both = 'temperature' in json && 'top_p' in json;
      res.writeHead(both ? 400 : 200, { 'content-type': 'application/json' });
      res.end(both ? JSON.stringify({ error: { message: 'litellm.BadRequestError: AnthropicException - `temperature` and `top_p` cannot both be specified for this model. Please use only one.', type: 'invalid_request_error' } }) : COMPLETION);
    });
    const ask = () =>
      fetch(`${gw.url}/openai/v1beta/models/claude-sonnet-4-5:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': TEST_LICENSE },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { temperature: 0, topP: 0.95 } }),
      });
    expect((await ask()).status).to.equal(200);
    expect((await ask()).status).to.equal(200);
    expect(seen.map((body) => [body.temperature, body.top_p])).to.deep.equal([[0, 0.95], [undefined, undefined], [0, 0.95], [undefined, undefined]]);
  });

  it("sends the limit as max_tokens and the stream without stream_options to a service that forbids them (Mistral's 422 extra_forbidden)", async () => {
    // Mistral refuses any field it does not know, each named in a FastAPI-style detail list.
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const extra = ['max_completion_tokens', 'stream_options'].find((field) => field in json);
      if (extra) {
        res.writeHead(422, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'error', message: { detail: [{ type: 'extra_forbidden', loc: ['body', extra], msg: 'Extra inputs are not permitted', input: json[extra] }] }, type: 'invalid_request_message_error', param: null, code: null }));
        return;
      }
      if (json.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'mistral-large', choices: [{ index: 0, delta: { role: 'assistant', content: 'done' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(COMPLETION);
    });
    const whole = await client().messages.create({ model: 'mistral-large-latest', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(whole.content).to.deep.equal([{ type: 'text', text: 'done' }]);
    expect(seen.map((body) => [body.max_completion_tokens, body.max_tokens])).to.deep.equal([[100, undefined], [undefined, 100]]);
    seen = [];
    const streamed = await client().messages.stream({ model: 'mistral-large-latest', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(streamed.content).to.deep.equal([{ type: 'text', text: 'done' }]);
    // The model's refusal of max_completion_tokens is remembered; stream_options is refused in turn.
    expect(seen.map((body) => [body.max_tokens, 'stream_options' in body])).to.deep.equal([[100, true], [100, false]]);
  });

  it("sends a Responses client's text.verbosity and prompt_cache_key (to chat upstreams, which take them) without them to a service that forbids them (Codex on Mistral: it was a 422)", async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const extra = ['verbosity', 'max_completion_tokens', 'prompt_cache_key'].filter((field) => field in json);
      if (extra.length > 0) {
        res.writeHead(422, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'error', message: { detail: extra.map((field) => ({ type: 'extra_forbidden', loc: ['body', field], msg: 'Extra inputs are not permitted', input: json[field] })) }, type: 'invalid_request_message_error', param: null, code: null }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(COMPLETION);
    });
    const responses = new OpenAI({ baseURL: `${gw.url}/chatonly/v1`, apiKey: TEST_LICENSE, maxRetries: 0 });
    const answer = await responses.responses.create({ model: 'mistral-large-latest', input: 'hi', text: { verbosity: 'low' }, max_output_tokens: 100, prompt_cache_key: 'session-1' });
    expect(answer.output_text).to.equal('done');
    expect(seen.map((body) => ['verbosity' in body, 'max_completion_tokens' in body, body.prompt_cache_key])).to.deep.equal([[true, true, 'session-1'], [false, false, undefined]]);
  });

  it("drops parallel_tool_calls for a model that refuses it (Codex's Responses call on o4-mini through chat)", async () => {
    refuse('parallel_tool_calls', "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.");
    const responses = new OpenAI({ baseURL: `${gw.url}/chatonly/v1`, apiKey: TEST_LICENSE, maxRetries: 0 });
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'shell', parameters: { type: 'object', properties: { cmd: { type: 'string' } } }, strict: false }];
    const ask = () => responses.responses.create({ model: 'o4-mini', input: 'list files', tools, parallel_tool_calls: false });
    expect((await ask()).output_text).to.equal('done');
    expect(seen.map((body) => 'parallel_tool_calls' in body)).to.deep.equal([true, false]);
    // Refused as a parameter of the model: later calls go without it at once.
    await ask();
    expect(seen.map((body) => 'parallel_tool_calls' in body)).to.deep.equal([true, false, false]);
  });

  it('asks again at the cap a 400 states for an output limit above it (Claude Code asks 32000 of any model), and at that cap later', async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const limit = Number(json.max_completion_tokens ?? json.max_tokens);
      if (limit > 16384) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `max_tokens is too large: ${limit}. This model supports at most 16384 completion tokens, whereas you provided ${limit}.`, type: 'invalid_request_error', param: 'max_tokens', code: 'invalid_value' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: { role: 'assistant', content: 'done' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`);
    });
    // Streamed, as Claude Code asks (the SDK streams any call this long).
    const ask = () => client().messages.stream({ model: 'gpt-4o', max_tokens: 32000, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect((await ask()).content).to.deep.equal([{ type: 'text', text: 'done' }]);
    expect(seen.map((body) => body.max_completion_tokens)).to.deep.equal([32000, 16384]);
    await ask();
    expect(seen.map((body) => body.max_completion_tokens)).to.deep.equal([32000, 16384, 16384]);
  });

  it("asks again within the room a vLLM server's context window leaves, for that call only: the next call asks what the client asks", async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const limit = Number(json.max_completion_tokens ?? json.max_tokens);
      if (limit > 12074) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'error', message: `'max_tokens' or 'max_completion_tokens' is too large: ${limit}. This model's maximum context length is 32768 tokens and your request has 20694 input tokens (${limit} > 32768 - 20694).`, type: 'BadRequestError', param: null, code: 400 }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(COMPLETION);
    });
    const ask = () => client().messages.create({ model: 'qwen3-coder', max_tokens: 20000, messages: [{ role: 'user', content: 'hi' }] });
    expect((await ask()).content).to.deep.equal([{ type: 'text', text: 'done' }]);
    await ask();
    expect(seen.map((body) => body.max_completion_tokens ?? body.max_tokens)).to.deep.equal([20000, 12074, 20000, 12074]);
  });

  it("lowers to the model's cap, then within the room the input leaves at that cap (DeepSeek's two refusals), once each", async () => {
    upstream.handle((_req, res, body) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      seen.push(json);
      const limit = Number(json.max_completion_tokens ?? json.max_tokens);
      const message =
        limit > 8192 ? 'Invalid max_tokens value, the valid range of max_tokens is [1, 8192]'
        : limit > 5536 ? `This model's maximum context length is 65536 tokens. However, you requested ${60000 + limit} tokens (60000 in the messages, ${limit} in the completion). Please reduce the length of the messages or completion.`
        : undefined;
      res.writeHead(message ? 400 : 200, { 'content-type': 'application/json' });
      res.end(message ? JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }) : COMPLETION);
    });
    const ask = () => client().messages.create({ model: 'deepseek-chat', max_tokens: 20000, messages: [{ role: 'user', content: 'hi' }] });
    expect((await ask()).content).to.deep.equal([{ type: 'text', text: 'done' }]);
    await ask();
    expect(seen.map((body) => body.max_completion_tokens ?? body.max_tokens)).to.deep.equal([20000, 8192, 5536, 8192, 5536]);
  });

  it("keeps a 400 about the output limit that states no cap (or one the limit is within) as the client's error, unretried", async () => {
    upstream.handle((_req, res, body) => {
      seen.push(JSON.parse(body.toString()) as Record<string, unknown>);
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'max_completion_tokens is too large for this request.', type: 'invalid_request_error', param: 'max_completion_tokens' } }));
    });
    const error = await client().messages.create({ model: 'o3', max_tokens: 20000, messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(Anthropic.BadRequestError);
    expect(seen).to.have.length(1);
  });

  it("keeps what an upstream says is missing (DeepSeek), and any other 400, as the client's error", async () => {
    upstream.handle((_req, res, body) => {
      seen.push(JSON.parse(body.toString()) as Record<string, unknown>);
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Missing `reasoning_content` field in the assistant message', type: 'invalid_request_error' } }));
    });
    const error = await client()
      .messages.create({ model: 'deepseek-reasoner', max_tokens: 100, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(Anthropic.BadRequestError);
    expect(seen).to.have.length(1);
  });

  it('makes the call again with the key or pool token it used, not the next one in turn (openai keys, token pool)', async () => {
    const keys = ['sk-test-key-a-0123456789', 'sk-test-key-b-0123456789', 'sk-test-key-c-0123456789'];
    const multi = await startGateway({
      keys: { plugin: 'openai', baseUrl: upstream.url, credentials: keys.map((apiKey) => ({ apiKey })) },
      pool: { plugin: 'token-pool', baseUrl: upstream.url, rotation: 3, tokens: keys.map((token) => ({ token })) },
    });
    try {
      for (const platform of ['keys', 'pool']) {
        const used: string[] = [];
        // Refuses top_p, then temperature: the call goes three times.
        upstream.handle((req, res, body) => {
          used.push(String(req.headers.authorization));
          const text = body.toString();
          const refused = text.includes('"top_p"') ? 'top_p' : text.includes('"temperature"') ? 'temperature' : undefined;
          res.writeHead(refused ? 400 : 200, { 'content-type': 'application/json' });
          res.end(refused ? JSON.stringify({ error: { message: `Unsupported parameter: '${refused}' is not supported with this model.`, type: 'invalid_request_error', param: refused, code: null } }) : COMPLETION);
        });
        const anthropic = new Anthropic({ baseURL: `${multi.url}/${platform}`, apiKey: TEST_LICENSE, maxRetries: 0 });
        // Sampling fields as Claude Code sends them (this SDK's types no longer list them).
        const sampling = { temperature: 0.5, top_p: 0.9 } as object;
        await anthropic.messages.create({ model: 'gpt-4.1', max_tokens: 100, ...sampling, messages: [{ role: 'user', content: 'hi' }] });
        expect(used, platform).to.have.length(3);
        expect(new Set(used).size, `${platform}: ${used.join(', ')}`).to.equal(1);
        // The next request takes the next key in turn, as before.
        used.length = 0;
        await anthropic.messages.create({ model: 'gpt-4.1', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
        await anthropic.messages.create({ model: 'gpt-4.1', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
        expect(new Set(used).size, platform).to.equal(2);
      }
    } finally {
      await multi.close();
    }
  });
});

describe('withoutFields: a refused reasoning effort', () => {
  const request = (effort: string): UpstreamRequest => ({ mode: 'translate', format: 'chat-completions', method: 'POST', path: '/v1/chat/completions', headers: {}, body: Buffer.from(JSON.stringify({ model: 'm', reasoning_effort: effort })), stream: false });
  const sentEffort = (effort: string, said: string): unknown => {
    const fields = optionalFieldsIn(request(effort)).filter((field) => field.name === 'reasoning_effort');
    return (JSON.parse(withoutFields(request(effort), fields, said).body!.toString()) as { reasoning_effort?: string }).reasoning_effort;
  };
  const refusal = (effort: string, listed: string) => `Unsupported value: 'reasoning_effort' does not support '${effort}' with this model. Supported values are: ${listed}.`;

  it('goes at the nearest effort the refusal lists, the larger of two as near, and is left out when none is listed', () => {
    expect(sentEffort('minimal', refusal('minimal', "'none', 'low', 'medium', 'high', and 'xhigh'"))).to.equal('low');
    expect(sentEffort('none', refusal('none', "'low', 'medium', and 'high'"))).to.equal('low');
    expect(sentEffort('xhigh', refusal('xhigh', "'low', 'medium', and 'high'"))).to.equal('high');
    expect(sentEffort('low', refusal('low', "'medium'"))).to.equal('medium');
    expect(sentEffort('none', "Unsupported value: 'reasoning_effort' does not support 'none' with this model.")).to.equal(undefined);
    expect(sentEffort('high', "Unsupported parameter: 'reasoning_effort' is not supported with this model.")).to.equal(undefined);
  });
});

describe('optionalFieldsIn: system messages after the start of a chat request', () => {
  const chatRequest = (messages: unknown[]): UpstreamRequest => ({ mode: 'translate', format: 'chat-completions', method: 'POST', path: '/v1/chat/completions', headers: {}, body: Buffer.from(JSON.stringify({ model: 'm', messages })), stream: false });
  const names = (messages: unknown[]) => optionalFieldsIn(chatRequest(messages)).map((field) => field.name);

  it('counts a system message after another message, not a leading system prompt', () => {
    expect(names([{ role: 'system', content: 'a' }, { role: 'user', content: 'b' }])).to.deep.equal([]);
    expect(names([{ role: 'system', content: 'a' }, { role: 'user', content: 'b' }, { role: 'system', content: 'c' }])).to.deep.equal(['system messages after the start']);
  });
});

describe('optionalFieldsIn: automatic prompt caching on a Messages request', () => {
  const messagesRequest = (json: Record<string, unknown>): UpstreamRequest => ({ mode: 'translate', format: 'messages', method: 'POST', path: '/v1/messages', headers: {}, body: Buffer.from(JSON.stringify(json)), stream: false });
  const block = { role: 'user', content: [{ type: 'text', text: 'doc', cache_control: { type: 'ephemeral' } }] };

  it('counts the top-level field only, not a client\'s breakpoints on blocks, and only a refusal of the top-level one', () => {
    const automatic = optionalFieldsIn(messagesRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], cache_control: { type: 'ephemeral' } }));
    expect(automatic.map((field) => field.name)).to.deep.equal(['cache_control']);
    expect(optionalFieldsIn(messagesRequest({ model: 'm', messages: [block] }))).to.deep.equal([]);
    const [field] = automatic;
    expect(field.refused?.('cache_control: Extra inputs are not permitted')).to.equal(true);
    expect(field.refused?.('messages.0.content.0.cache_control: Extra inputs are not permitted')).to.equal(false);
    // Structured output: its own field refused, not another field of output_config.
    const structured = optionalFieldsIn(messagesRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], output_config: { effort: 'low', format: { type: 'json_schema', schema: {} } } }));
    const format = structured.find((f) => f.name === 'output_config.format');
    expect(format?.refused?.("Model 'claude-sonnet-4-20250514' does not support structured outputs.")).to.equal(true);
    expect(format?.refused?.('output_config.format: Extra inputs are not permitted')).to.equal(true);
    expect(format?.refused?.('output_config.effort: Extra inputs are not permitted')).to.equal(false);
    const sent = withoutFields(messagesRequest({ model: 'm', messages: [block], cache_control: { type: 'ephemeral' } }), automatic);
    expect(JSON.parse(sent.body!.toString())).to.deep.equal({ model: 'm', messages: [block] });
  });
});
