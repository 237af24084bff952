import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startSimulator, type Simulator } from '../../../simulator';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

/**
 * Gemini 3 checks the thought signature of each function call in the current turn; clients of the other formats
 * have no field to send it back in. The gateway keeps it and puts it back: the simulator must see the signature it
 * sent, not the placeholder that skips the check (and loses the model's reasoning).
 */
const MODEL = 'gemini-3-pro-preview';
const PLACEHOLDER = 'skip_thought_signature_validator';
const WEATHER = { name: 'get_weather', description: 'Weather of a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

type SimPart = { functionCall?: { name: string }; thoughtSignature?: string; functionResponse?: unknown };
type SimBody = { contents: Array<{ role?: string; parts: SimPart[] }> };

describe('e2e: Gemini thought signatures round-trip through clients of other formats', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let anthropic: Anthropic;
  let openai: OpenAI;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIzaSy-sim-upstream-key-0001' }] } });
    anthropic = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/gemini`, maxRetries: 0 });
    openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/gemini/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(() => sim.reset());

  /** The signature the simulator put on its function call in the first answer, and what came back with it next turn. */
  function signatures(): { sent: string; returned: Array<string | undefined> } {
    const [first, second] = sim.requests;
    expect(first, 'the first turn reached the simulator').to.not.equal(undefined);
    expect(second, 'the second turn reached the simulator').to.not.equal(undefined);
    const counter = 1;
    const sent = Buffer.from(`sim-thought-signature-${counter}`).toString('base64');
    const returned = (second.body as SimBody).contents.flatMap((content) => content.parts).filter((part) => part.functionCall).map((part) => part.thoughtSignature);
    return { sent, returned };
  }

  for (const stream of [false, true]) {
    it(`Messages (@anthropic-ai/sdk, ${stream ? 'stream' : 'non-stream'}): the tool_result turn carries the call's own signature`, async () => {
      const tools = [{ name: WEATHER.name, description: WEATHER.description, input_schema: WEATHER.parameters as Anthropic.Tool.InputSchema }];
      const ask: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris? [sim:tool]' };
      const first = stream
        ? await anthropic.messages.stream({ model: MODEL, max_tokens: 256, tools, messages: [ask] }).finalMessage()
        : await anthropic.messages.create({ model: MODEL, max_tokens: 256, tools, messages: [ask] });
      const use = first.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
      expect(use, 'a tool_use block').to.not.equal(undefined);
      await anthropic.messages.create({
        model: MODEL,
        max_tokens: 256,
        tools,
        messages: [ask, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use!.id, content: 'Sunny, 24°C' }] }],
      });
      const { sent, returned } = signatures();
      expect(returned).to.deep.equal([sent]);
      expect(returned).not.to.include(PLACEHOLDER);
      // The simulator's call had no id: the one the gateway made up (toolu_… here) is not Gemini's to see.
      const parts = (sim.requests[1].body as SimBody).contents.flatMap((content) => content.parts);
      const ids = parts.flatMap((part) => [part.functionCall, part.functionResponse]).filter(Boolean).map((part) => (part as { id?: string }).id);
      expect(ids).to.deep.equal([undefined, undefined]);
    });
  }

  it('chat completions (openai, stream): the tool turn carries the call\'s own signature', async () => {
    const tools = [{ type: 'function' as const, function: WEATHER }];
    const ask = { role: 'user' as const, content: 'Weather in Paris? [sim:tool]' };
    const stream = await openai.chat.completions.create({ model: MODEL, tools, messages: [ask], stream: true });
    const calls: Array<{ id: string; name: string; args: string }> = [];
    for await (const chunk of stream) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        if (delta.id) calls[delta.index] = { id: delta.id, name: delta.function?.name ?? '', args: '' };
        calls[delta.index].args += delta.function?.arguments ?? '';
      }
    }
    expect(calls).to.have.length(1);
    await openai.chat.completions.create({
      model: MODEL,
      tools,
      messages: [
        ask,
        { role: 'assistant', content: null, tool_calls: calls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.args } })) },
        { role: 'tool', tool_call_id: calls[0].id, content: 'Sunny, 24°C' },
      ],
    });
    const { sent, returned } = signatures();
    expect(returned).to.deep.equal([sent]);
  });

  for (const stream of [false, true]) {
    it(`Responses (openai, store: false as Codex sends it, ${stream ? 'stream' : 'non-stream'}): the function_call_output turn carries the call's own signature`, async () => {
      const tools = [{ type: 'function' as const, name: WEATHER.name, description: WEATHER.description, parameters: WEATHER.parameters, strict: false }];
      const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Weather in Paris? [sim:tool]' }];
      const first: OpenAI.Responses.Response = stream
        ? await openai.responses.stream({ model: MODEL, tools, input, store: false }).finalResponse()
        : await openai.responses.create({ model: MODEL, tools, input, store: false });
      const call = first.output.find((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
      expect(call, 'a function_call item').to.not.equal(undefined);
      await openai.responses.create({
        model: MODEL,
        tools,
        store: false,
        input: [...input, { type: 'function_call', call_id: call!.call_id, name: call!.name, arguments: call!.arguments }, { type: 'function_call_output', call_id: call!.call_id, output: 'Sunny, 24°C' }],
      });
      const { sent, returned } = signatures();
      expect(returned).to.deep.equal([sent]);
    });
  }

  it('a call the gateway kept nothing for still gets the placeholder Gemini 3 requires', async () => {
    await openai.chat.completions.create({
      model: MODEL,
      tools: [{ type: 'function', function: WEATHER }],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_from_elsewhere', type: 'function', function: { name: WEATHER.name, arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_from_elsewhere', content: 'Sunny' },
      ],
    });
    const parts = (sim.requests[0].body as SimBody).contents.flatMap((content) => content.parts).filter((part) => part.functionCall);
    expect(parts.map((part) => part.thoughtSignature)).to.deep.equal([PLACEHOLDER]);
  });

  it('survives a restart: a call answered before it is signed after it (sqlite store)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gemini-signatures-'));
    const platforms = { gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIzaSy-sim-upstream-key-0001' }] } };
    const store = { driver: 'sqlite' as const, path: path.join(dir, 'gateway.db') };
    const tools = [{ type: 'function' as const, function: WEATHER }];
    const ask = { role: 'user' as const, content: 'Weather in Paris? [sim:tool]' };
    try {
      const before = await startGateway(platforms, { store });
      const first = await new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${before.url}/gemini/v1`, maxRetries: 0 }).chat.completions.create({ model: MODEL, tools, messages: [ask] });
      await before.close();
      const call = first.choices[0].message.tool_calls![0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
      const after = await startGateway(platforms, { store });
      try {
        await new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${after.url}/gemini/v1`, maxRetries: 0 }).chat.completions.create({
          model: MODEL,
          tools,
          messages: [ask, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: 'Sunny' }],
        });
      } finally {
        await after.close();
      }
      const { sent, returned } = signatures();
      expect(returned).to.deep.equal([sent]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
