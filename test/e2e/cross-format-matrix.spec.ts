import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content, type GenerateContentParameters, type GenerateContentResponse, type Part } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import type { WireFormat } from '@gateway/core';
import { startSimulator, type Simulator } from '../../simulator';
import { fixtureJson } from '../helpers/fixtures';
import { FORMAT_PLUGIN_PATH, VENDOR_OF_FORMAT } from '../helpers/format-plugin';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';

/**
 * Every client format × every upstream format, streaming and not, through the real gateway and the simulator,
 * each side parsed by the client format's official SDK. The request carries text, an image, a declared tool and
 * asks for thinking; `[sim:tool]` makes the upstream call the tool and `[sim:thinking]` makes it reason first.
 * The second turn sends the tool result back and must reach the upstream as a tool result ("Tool said: …").
 */

const FORMATS: readonly WireFormat[] = ['chat-completions', 'responses', 'messages', 'gemini'];
const UPSTREAM_KEY: Record<WireFormat, string> = {
  'chat-completions': 'to-chat',
  responses: 'to-responses',
  messages: 'to-messages',
  gemini: 'to-gemini',
};
const MODEL: Record<WireFormat, string> = {
  'chat-completions': 'gpt-4.1-mini',
  responses: 'gpt-5',
  messages: 'claude-sonnet-4-6',
  gemini: 'gemini-2.5-flash',
};
const UPSTREAM_API_KEY = 'sim-upstream-key-0001';

const PROMPT = 'What is the weather where this picture was taken? [sim:tool] [sim:thinking]';
const TOOL_RESULT = 'sunny, 21 C';
const TOOL_NAME = 'get_weather';
const TOOL_DESCRIPTION = 'Current weather of a city';
const TOOL_PARAMETERS = { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] };
/** What the simulator fills in for the required string property. */
const TOOL_ARGUMENTS = { city: 'x' };
/** The simulator's reasoning text (simulator/scenario.ts THINKING_TEXT). */
const THINKING_TEXT = 'The user wants their words echoed back. I will repeat them.';

interface VisionFixture {
  messages: Array<{ content: Array<{ type: string; image_url?: { url: string } }> }>;
}
const PNG_DATA_URI = fixtureJson<VisionFixture>('openai-chat/request-vision.json').messages[0].content.find((part) => part.type === 'image_url')!.image_url!.url;
const PNG_BASE64 = PNG_DATA_URI.slice(PNG_DATA_URI.indexOf(',') + 1);

/** What a client saw of the first turn, reduced to the facts every format can show. */
interface FirstTurn {
  toolCall: { id: string; name: string; arguments: unknown };
  reasoning: string;
  usage: { input: number; output: number };
  /** Sends the tool result back in the client's format (same streaming mode) and returns the answer text. */
  answerWith(result: string): Promise<string>;
}

interface ClientDriver {
  firstTurn(platform: string, model: string, streaming: boolean): Promise<FirstTurn>;
}

type ChatMessage = OpenAI.Chat.ChatCompletionMessage & { reasoning_content?: string };

function chatDriver(gatewayUrl: string): ClientDriver {
  const clientFor = (platform: string) => new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gatewayUrl}/${platform}/v1`, maxRetries: 0 });
  const tools: OpenAI.Chat.ChatCompletionTool[] = [{ type: 'function', function: { name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: TOOL_PARAMETERS } }];

  async function complete(client: OpenAI, model: string, messages: OpenAI.Chat.ChatCompletionMessageParam[], streaming: boolean) {
    const params = { model, messages, tools, reasoning_effort: 'low' as const };
    if (!streaming) {
      const completion = await client.chat.completions.create(params);
      const message = completion.choices[0].message as ChatMessage;
      return { message, reasoning: message.reasoning_content ?? '', finish: completion.choices[0].finish_reason, usage: completion.usage };
    }
    const stream = client.chat.completions.stream({ ...params, stream_options: { include_usage: true } });
    let reasoning = '';
    let usage: OpenAI.CompletionUsage | undefined;
    stream.on('chunk', (chunk) => {
      // `reasoning_content` is not in the SDK's types: read it raw from the delta, as clients of reasoning models do.
      const delta = chunk.choices[0]?.delta as { reasoning_content?: string } | undefined;
      if (delta?.reasoning_content) reasoning += delta.reasoning_content;
      if (chunk.usage) usage = chunk.usage;
    });
    const completion = await stream.finalChatCompletion();
    return { message: completion.choices[0].message as ChatMessage, reasoning, finish: completion.choices[0].finish_reason, usage };
  }

  return {
    async firstTurn(platform, model, streaming) {
      const client = clientFor(platform);
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'user', content: [{ type: 'text', text: PROMPT }, { type: 'image_url', image_url: { url: PNG_DATA_URI } }] },
      ];
      const first = await complete(client, model, messages, streaming);
      expect(first.finish).to.equal('tool_calls');
      const call = first.message.tool_calls?.[0];
      expect(call?.type).to.equal('function');
      const fn = (call as OpenAI.Chat.ChatCompletionMessageFunctionToolCall).function;
      return {
        toolCall: { id: call!.id, name: fn.name, arguments: JSON.parse(fn.arguments) },
        reasoning: first.reasoning,
        usage: { input: first.usage?.prompt_tokens ?? 0, output: first.usage?.completion_tokens ?? 0 },
        async answerWith(result) {
          const next = await complete(
            client,
            model,
            [...messages, first.message as OpenAI.Chat.ChatCompletionMessageParam, { role: 'tool', tool_call_id: call!.id, content: result }],
            streaming,
          );
          expect(next.finish).to.equal('stop');
          return next.message.content ?? '';
        },
      };
    },
  };
}

function responsesDriver(gatewayUrl: string): ClientDriver {
  const clientFor = (platform: string) => new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gatewayUrl}/${platform}/v1`, maxRetries: 0 });
  const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: TOOL_PARAMETERS, strict: false }];

  async function respond(client: OpenAI, model: string, input: OpenAI.Responses.ResponseInputItem[], streaming: boolean) {
    // A stateless client (Codex style): nothing stored upstream, reasoning carried back as encrypted content.
    const params = {
      model,
      input,
      tools,
      reasoning: { effort: 'low' as const, summary: 'auto' as const },
      store: false,
      include: ['reasoning.encrypted_content' as const],
    };
    if (!streaming) {
      const response = await client.responses.create(params);
      const reasoning = response.output.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((s) => s.text) : [])).join('');
      return { response, reasoning, completedUsage: response.usage };
    }
    const stream = client.responses.stream(params);
    let reasoning = '';
    let completedUsage: OpenAI.Responses.ResponseUsage | undefined;
    let lastSequence = -1;
    for await (const event of stream) {
      expect(event.sequence_number).to.be.greaterThan(lastSequence);
      lastSequence = event.sequence_number;
      if (event.type === 'response.reasoning_summary_text.delta') reasoning += event.delta;
      if (event.type === 'response.completed') completedUsage = event.response.usage ?? undefined;
    }
    return { response: await stream.finalResponse(), reasoning, completedUsage };
  }

  return {
    async firstTurn(platform, model, streaming) {
      const client = clientFor(platform);
      const input: OpenAI.Responses.ResponseInputItem[] = [
        { role: 'user', content: [{ type: 'input_text', text: PROMPT }, { type: 'input_image', image_url: PNG_DATA_URI, detail: 'auto' }] },
      ];
      const first = await respond(client, model, input, streaming);
      expect(first.response.status).to.equal('completed');
      const call = first.response.output.find((item) => item.type === 'function_call');
      if (call?.type !== 'function_call') throw new Error('expected a function_call output item');
      return {
        toolCall: { id: call.call_id, name: call.name, arguments: JSON.parse(call.arguments) },
        reasoning: first.reasoning,
        usage: { input: first.completedUsage?.input_tokens ?? 0, output: first.completedUsage?.output_tokens ?? 0 },
        async answerWith(result) {
          // What a stateless client does: the whole conversation, the previous output items included, then the result.
          const replay = first.response.output as unknown as OpenAI.Responses.ResponseInputItem[];
          const next = await respond(client, model, [...input, ...replay, { type: 'function_call_output', call_id: call.call_id, output: result }], streaming);
          expect(next.response.status).to.equal('completed');
          return next.response.output_text;
        },
      };
    },
  };
}

function messagesDriver(gatewayUrl: string): ClientDriver {
  const clientFor = (platform: string) => new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gatewayUrl}/${platform}`, maxRetries: 0 });
  const tools: Anthropic.Tool[] = [{ name: TOOL_NAME, description: TOOL_DESCRIPTION, input_schema: TOOL_PARAMETERS as Anthropic.Tool.InputSchema }];

  async function send(client: Anthropic, model: string, messages: Anthropic.MessageParam[], streaming: boolean) {
    const params = { model, max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools, messages };
    if (!streaming) {
      const message = await client.messages.create(params);
      return { message, thinkingDeltas: '', deltaUsage: message.usage.output_tokens };
    }
    const stream = client.messages.stream(params);
    let thinkingDeltas = '';
    let deltaUsage = 0;
    stream.on('thinking', (delta) => {
      thinkingDeltas += delta;
    });
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_delta') deltaUsage = event.usage.output_tokens;
    });
    return { message: await stream.finalMessage(), thinkingDeltas, deltaUsage };
  }

  return {
    async firstTurn(platform, model, streaming) {
      const client = clientFor(platform);
      const messages: Anthropic.MessageParam[] = [
        {
          role: 'user',
          content: [
            { type: 'text', text: PROMPT },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
          ],
        },
      ];
      const first = await send(client, model, messages, streaming);
      expect(first.message.stop_reason).to.equal('tool_use');
      const toolUse = first.message.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
      expect(toolUse, 'a tool_use block').to.not.equal(undefined);
      const reasoning = first.message.content.flatMap((block) => (block.type === 'thinking' ? [block.thinking] : [])).join('');
      if (streaming) expect(first.thinkingDeltas).to.equal(reasoning);
      expect(first.deltaUsage, 'output tokens in the final message_delta').to.be.greaterThan(0);
      return {
        toolCall: { id: toolUse!.id, name: toolUse!.name, arguments: toolUse!.input },
        reasoning,
        usage: { input: first.message.usage.input_tokens, output: first.message.usage.output_tokens },
        async answerWith(result) {
          const next = await send(
            client,
            model,
            [
              ...messages,
              { role: 'assistant', content: first.message.content },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse!.id, content: result }] },
            ],
            streaming,
          );
          expect(next.message.stop_reason).to.equal('end_turn');
          return next.message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
        },
      };
    },
  };
}

function geminiDriver(gatewayUrl: string): ClientDriver {
  const clientFor = (platform: string) => new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${gatewayUrl}/${platform}` } });
  const config: GenerateContentParameters['config'] = {
    tools: [{ functionDeclarations: [{ name: TOOL_NAME, description: TOOL_DESCRIPTION, parametersJsonSchema: TOOL_PARAMETERS }] }],
    thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
  };

  /** One turn, reduced to the model's parts (stream chunks concatenated) and the final chunk's usage and finish reason. */
  async function generate(client: GoogleGenAI, model: string, contents: Content[], streaming: boolean) {
    if (!streaming) {
      const response = await client.models.generateContent({ model, contents, config });
      return { parts: response.candidates?.[0].content?.parts ?? [], final: response };
    }
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of await client.models.generateContentStream({ model, contents, config })) chunks.push(chunk);
    expect(chunks.length).to.be.greaterThan(0);
    return { parts: chunks.flatMap((chunk) => chunk.candidates?.[0].content?.parts ?? []), final: chunks.at(-1)! };
  }

  return {
    async firstTurn(platform, model, streaming) {
      const client = clientFor(platform);
      const contents: Content[] = [{ role: 'user', parts: [{ text: PROMPT }, { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }] }];
      const first = await generate(client, model, contents, streaming);
      const calls = first.parts.filter((part): part is Part & { functionCall: NonNullable<Part['functionCall']> } => part.functionCall !== undefined);
      expect(calls).to.have.length(1);
      expect(first.final.candidates?.[0].finishReason).to.equal('STOP');
      const call = calls[0].functionCall;
      const usage = first.final.usageMetadata;
      return {
        toolCall: { id: call.id ?? '', name: call.name ?? '', arguments: call.args },
        reasoning: first.parts.flatMap((part) => (part.thought && part.text ? [part.text] : [])).join(''),
        usage: { input: usage?.promptTokenCount ?? 0, output: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0) },
        async answerWith(result) {
          const functionResponse = { ...(call.id ? { id: call.id } : {}), name: call.name, response: { result } };
          const next = await generate(
            client,
            model,
            [...contents, { role: 'model', parts: first.parts }, { role: 'user', parts: [{ functionResponse }] }],
            streaming,
          );
          expect(next.final.candidates?.[0].finishReason).to.equal('STOP');
          return next.parts.flatMap((part) => (part.text && !part.thought ? [part.text] : [])).join('');
        },
      };
    },
  };
}

type Json = Record<string, unknown>;
const records = (value: unknown): Json[] => (Array.isArray(value) ? (value.filter((v) => typeof v === 'object' && v !== null) as Json[]) : []);
const record = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});

/** Did the upstream body carry the PNG, in that format's own shape? */
function upstreamImageParts(format: WireFormat, body: Json): Json[] {
  switch (format) {
    case 'chat-completions':
      return records(body.messages).flatMap((m) => records(m.content)).filter((p) => p.type === 'image_url' && record(p.image_url).url === PNG_DATA_URI);
    case 'responses':
      return records(body.input).flatMap((i) => records(i.content)).filter((p) => p.type === 'input_image' && p.image_url === PNG_DATA_URI);
    case 'messages':
      return records(body.messages)
        .flatMap((m) => records(m.content))
        .filter((b) => b.type === 'image' && record(b.source).type === 'base64' && record(b.source).media_type === 'image/png' && record(b.source).data === PNG_BASE64);
    case 'gemini':
      return records(body.contents)
        .flatMap((c) => records(c.parts))
        .filter((p) => record(p.inlineData).mimeType === 'image/png' && record(p.inlineData).data === PNG_BASE64);
  }
}

/** The declared tool as the upstream format spells it: name and the schema's `city` property. */
function upstreamTools(format: WireFormat, body: Json): Array<{ name: unknown; schema: Json }> {
  switch (format) {
    case 'chat-completions':
      return records(body.tools).map((t) => ({ name: record(t.function).name, schema: record(record(t.function).parameters) }));
    case 'responses':
      return records(body.tools).filter((t) => t.type === 'function').map((t) => ({ name: t.name, schema: record(t.parameters) }));
    case 'messages':
      return records(body.tools).map((t) => ({ name: t.name, schema: record(t.input_schema) }));
    case 'gemini':
      return records(body.tools)
        .flatMap((t) => records(t.functionDeclarations))
        .map((d) => ({ name: d.name, schema: record(d.parametersJsonSchema ?? d.parameters) }));
  }
}

/** Did the upstream body ask for reasoning, in that format's own shape? */
function upstreamAsksForReasoning(format: WireFormat, body: Json): boolean {
  switch (format) {
    case 'chat-completions':
      return typeof body.reasoning_effort === 'string';
    case 'responses':
      return typeof record(body.reasoning).effort === 'string';
    case 'messages':
      return record(body.thinking).type === 'enabled' || record(body.thinking).type === 'adaptive';
    case 'gemini': {
      const thinking = record(record(body.generationConfig).thinkingConfig);
      return (typeof thinking.thinkingBudget === 'number' && thinking.thinkingBudget > 0) || typeof thinking.thinkingLevel === 'string';
    }
  }
}

/**
 * Did the upstream body ask to get the reasoning text back, where the format can hide it? Only clients that ask to
 * see it say so: Responses `reasoning.summary`, Anthropic `thinking`, Gemini `includeThoughts`. A chat client's
 * `reasoning_effort` sets effort only (the platform plugin decides, e.g. Gemini's `-thinking` model suffix).
 */
function upstreamAsksToShowReasoning(format: WireFormat, body: Json): boolean {
  switch (format) {
    case 'responses':
      return typeof record(body.reasoning).summary === 'string';
    case 'gemini':
      return record(record(body.generationConfig).thinkingConfig).includeThoughts === true;
    case 'chat-completions':
    case 'messages':
      return upstreamAsksForReasoning(format, body);
  }
}

/**
 * Anthropic's rule for thinking with tool use, which the simulator does not enforce: with thinking on, the last
 * assistant turn that calls tools must open with its (signed) thinking block, else the API answers 400.
 */
function breaksAnthropicThinkingRule(body: Json): boolean {
  const thinking = record(body.thinking).type;
  if (thinking !== 'enabled' && thinking !== 'adaptive') return false;
  const blocks = records(records(body.messages).filter((m) => m.role === 'assistant').at(-1)?.content);
  if (!blocks.some((b) => b.type === 'tool_use')) return false;
  return blocks[0].type !== 'thinking' && blocks[0].type !== 'redacted_thinking';
}

/** The opaque reasoning state the upstream signed, as that format carries it back in the next turn. */
function replayedReasoningState(format: WireFormat, body: Json): unknown[] {
  switch (format) {
    case 'chat-completions':
      return [];
    case 'responses':
      return records(body.input).filter((i) => i.type === 'reasoning').map((i) => i.encrypted_content);
    case 'messages':
      return records(body.messages).flatMap((m) => records(m.content)).filter((b) => b.type === 'thinking').map((b) => b.signature);
    case 'gemini':
      return records(body.contents).flatMap((c) => records(c.parts)).flatMap((p) => (p.thoughtSignature === undefined ? [] : [p.thoughtSignature]));
  }
}

/** The credential each simulator vendor expects. */
function upstreamCredential(format: WireFormat, headers: Record<string, string | string[] | undefined>): string | string[] | undefined {
  switch (VENDOR_OF_FORMAT[format]) {
    case 'anthropic':
      expect(headers['anthropic-version']).to.equal('2023-06-01');
      return headers['x-api-key'];
    case 'gemini':
      return headers['x-goog-api-key'];
    case 'openai':
      return headers.authorization;
  }
}

describe('e2e: every client format × every upstream format (SDK → gateway → simulator)', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let drivers: Record<WireFormat, ClientDriver>;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    const urls: Record<'openai' | 'anthropic' | 'gemini', string> = { openai: sim.openaiUrl, anthropic: sim.anthropicUrl, gemini: sim.geminiUrl };
    const platforms = Object.fromEntries(
      FORMATS.map((upstream) => [UPSTREAM_KEY[upstream], { plugin: FORMAT_PLUGIN_PATH, baseUrl: urls[VENDOR_OF_FORMAT[upstream]], upstream, apiKey: UPSTREAM_API_KEY }]),
    );
    gw = await startGateway(platforms);
    drivers = {
      'chat-completions': chatDriver(gw.url),
      responses: responsesDriver(gw.url),
      messages: messagesDriver(gw.url),
      gemini: geminiDriver(gw.url),
    };
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(() => sim.reset());

  for (const client of FORMATS) {
    for (const upstream of FORMATS) {
      for (const streaming of [false, true]) {
        it(`${client} client → ${upstream} upstream (${streaming ? 'stream' : 'non-stream'}): image, tool call, reasoning, usage, tool result`, async () => {
          const first = await drivers[client].firstTurn(UPSTREAM_KEY[upstream], MODEL[upstream], streaming);

          expect(first.toolCall.name).to.equal(TOOL_NAME);
          expect(first.toolCall.arguments).to.deep.equal(TOOL_ARGUMENTS);
          if (client !== 'gemini') expect(first.toolCall.id).to.be.a('string').and.not.equal('');
          expect(first.reasoning).to.equal(THINKING_TEXT);
          expect(first.usage.input, 'input tokens').to.be.greaterThan(0);
          expect(first.usage.output, 'output tokens').to.be.greaterThan(0);

          expect(sim.requests).to.have.length(1);
          const seen = sim.requests[0];
          expect(seen.vendor).to.equal(VENDOR_OF_FORMAT[upstream]);
          const body = record(seen.body);
          expect(upstreamImageParts(upstream, body), 'the image in the upstream format').to.have.length(1);
          const tools = upstreamTools(upstream, body);
          expect(tools.map((t) => t.name)).to.deep.equal([TOOL_NAME]);
          expect(record(record(tools[0].schema.properties).city).type).to.match(/^string$/i);
          expect(upstreamAsksForReasoning(upstream, body), 'reasoning requested upstream').to.equal(true);
          if (client !== 'chat-completions') expect(upstreamAsksToShowReasoning(upstream, body), 'reasoning text requested upstream').to.equal(true);
          const credential = upstreamCredential(upstream, seen.headers);
          expect(String(credential)).to.include(UPSTREAM_API_KEY);
          expect(JSON.stringify(seen.headers)).not.to.include(TEST_LICENSE);

          const answer = await first.answerWith(TOOL_RESULT);
          expect(answer).to.equal(`Tool said: ${TOOL_RESULT}`);
          expect(sim.requests).to.have.length(2);
          const second = record(sim.requests[1].body);
          if (upstream === 'messages') expect(breaksAnthropicThinkingRule(second), 'thinking on with an unsigned tool-use turn').to.equal(false);
          // Signed reasoning goes back only to the format that signed it, unchanged.
          const replayed = replayedReasoningState(upstream, second);
          if (client === upstream && upstream !== 'chat-completions') expect(replayed).to.have.length(1).and.satisfy((v: unknown[]) => typeof v[0] === 'string' && v[0] !== '');
          else if (upstream !== 'gemini') expect(replayed).to.deep.equal([]);
        });
      }
    }
  }
});
