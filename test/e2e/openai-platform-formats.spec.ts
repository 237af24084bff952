import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content, type GenerateContentResponse } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import { createJsonArrayParser } from '../../core/sse/parse-json-array';
import { startSimulator, type Simulator } from '../../simulator';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Weather of a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

const GEMINI_WEATHER = {
  functionDeclarations: [
    { name: 'get_weather', description: 'Weather of a city', parametersJsonSchema: WEATHER_TOOL.input_schema },
  ],
};

/** The SDK's getters warn when a response mixes text and calls; keep the test output clean. */
function quietly<T>(read: () => T): T {
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return read();
  } finally {
    console.warn = warn;
  }
}

/**
 * Reads a streamed JSON array as a client that does not wait for the closing `]` would: elements are taken as
 * they complete, with the number of the network read that completed each; the whole text must parse too.
 */
async function readJsonArrayElements(body: ReadableStream<Uint8Array>): Promise<{ elements: unknown[]; completedAtRead: number[] }> {
  const parser = createJsonArrayParser();
  const elements: unknown[] = [];
  const completedAtRead: number[] = [];
  let text = '';
  let reads = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    reads += 1;
    text += Buffer.from(chunk).toString('utf8');
    for (const event of parser.push(Buffer.from(chunk))) {
      elements.push(JSON.parse(event.data));
      completedAtRead.push(reads);
    }
  }
  expect(parser.end()).to.deep.equal([]);
  expect(JSON.parse(text)).to.deep.equal(elements);
  return { elements, completedAtRead };
}

describe('e2e: Anthropic and Google SDKs → gateway (openai plugin, translated) → simulator', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let anthropic: Anthropic;
  let google: GoogleGenAI;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway({ openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-key-0001' }] } });
    anthropic = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai`, maxRetries: 0 });
    google = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${gw.url}/openai` } });
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(() => sim.reset());

  describe('/openai/v1/messages through @anthropic-ai/sdk', () => {
    it('answers messages.create with text and usage, sent upstream as a chat completion', async () => {
      const message = await anthropic.messages.create({
        model: 'gpt-4.1-mini',
        max_tokens: 64,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'hello there' }],
      });
      expect(message.type).to.equal('message');
      expect(message.role).to.equal('assistant');
      expect(message.content).to.deep.equal([{ type: 'text', text: 'Echo: hello there' }]);
      expect(message.stop_reason).to.equal('end_turn');
      expect(message.usage.input_tokens).to.be.greaterThan(0);
      expect(message.usage.output_tokens).to.be.greaterThan(0);

      const seen = sim.requests.at(-1)!;
      expect(seen.path).to.equal('/v1/chat/completions');
      expect(seen.headers.authorization).to.equal('Bearer sk-sim-upstream-key-0001');
      expect(JSON.stringify(seen.headers)).not.to.include(TEST_LICENSE);
      expect(seen.body).to.deep.include({ model: 'gpt-4.1-mini' });
      expect((seen.body as { messages: unknown[] }).messages[0]).to.deep.equal({ role: 'system', content: 'Be brief.' });
    });

    it('streams through messages.stream, text arriving in several deltas, finalMessage carrying usage', async () => {
      const stream = anthropic.messages.stream({
        model: 'gpt-4.1-mini',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'stream me [sim:chunks=4]' }],
      });
      const deltas: string[] = [];
      stream.on('text', (delta) => deltas.push(delta));
      const message = await stream.finalMessage();
      expect(deltas.length).to.be.at.least(4);
      expect(deltas.join('')).to.equal('Echo: stream me');
      expect(message.content).to.deep.equal([{ type: 'text', text: 'Echo: stream me' }]);
      expect(message.stop_reason).to.equal('end_turn');
      expect(message.usage.input_tokens).to.be.greaterThan(0);
      expect(message.usage.output_tokens).to.be.greaterThan(0);
      expect((sim.requests.at(-1)!.body as { stream?: boolean }).stream).to.equal(true);
    });

    for (const streaming of [false, true]) {
      it(`makes a tool-use round trip (${streaming ? 'stream' : 'non-stream'})`, async () => {
        const question: Anthropic.MessageParam = { role: 'user', content: 'weather in Paris? [sim:tool]' };
        const params = { model: 'gpt-4.1-mini', max_tokens: 64, tools: [WEATHER_TOOL], messages: [question] };
        const first = streaming ? await anthropic.messages.stream(params).finalMessage() : await anthropic.messages.create(params);
        expect(first.stop_reason).to.equal('tool_use');
        const toolUse = first.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
        expect(toolUse?.name).to.equal('get_weather');
        expect(toolUse?.input).to.deep.equal({ city: 'x' });
        expect(toolUse?.id).to.be.a('string').and.not.equal('');
        expect(first.usage.output_tokens).to.be.greaterThan(0);
        const upstreamTools = (sim.requests.at(-1)!.body as { tools: Array<{ type: string; function: { name: string; parameters: unknown } }> }).tools;
        expect(upstreamTools).to.deep.equal([
          { type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: WEATHER_TOOL.input_schema } },
        ]);

        const second = {
          ...params,
          messages: [
            question,
            { role: 'assistant' as const, content: first.content },
            { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: toolUse!.id, content: 'sunny, 21 C' }] },
          ],
        };
        const answer = streaming ? await anthropic.messages.stream(second).finalMessage() : await anthropic.messages.create(second);
        expect(answer.content).to.deep.equal([{ type: 'text', text: 'Tool said: sunny, 21 C' }]);
        expect(answer.stop_reason).to.equal('end_turn');
        const upstreamMessages = (sim.requests.at(-1)!.body as { messages: Array<Record<string, unknown>> }).messages;
        // The id without the toolu_ the client got it with (services that check their ids refuse any other).
        const upstreamId = toolUse!.id.replace(/^toolu_/, '');
        expect(upstreamMessages.at(-1)).to.deep.equal({ role: 'tool', tool_call_id: upstreamId, content: 'sunny, 21 C' });
        expect(upstreamMessages.at(-2)).to.deep.include({ role: 'assistant' });
        expect((upstreamMessages.at(-2)!.tool_calls as unknown[])[0]).to.deep.include({ id: upstreamId, type: 'function' });
      });
    }

    it('raises a 400 the SDK recognises for an unknown role, without calling upstream', async () => {
      const error = await anthropic.messages
        .create({ model: 'gpt-4.1-mini', max_tokens: 64, messages: [{ role: 'robot', content: 'x' }] } as unknown as Anthropic.MessageCreateParamsNonStreaming)
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(Anthropic.BadRequestError);
      expect((error as Error).message).to.include('messages[0].role');
      expect(sim.requests).to.have.length(0);
    });
  });

  describe('/openai/v1beta/models/{m}:generateContent and :streamGenerateContent through @google/genai', () => {
    it('answers generateContent with text and usageMetadata', async () => {
      const response = await google.models.generateContent({
        model: 'gpt-4.1-mini',
        contents: 'hello gemini',
        config: { systemInstruction: 'Be brief.', maxOutputTokens: 64 },
      });
      expect(response.text).to.equal('Echo: hello gemini');
      expect(response.candidates?.[0].finishReason).to.equal('STOP');
      expect(response.usageMetadata?.promptTokenCount).to.be.greaterThan(0);
      expect(response.usageMetadata?.candidatesTokenCount).to.be.greaterThan(0);
      expect(response.usageMetadata?.totalTokenCount).to.be.greaterThan(0);

      const seen = sim.requests.at(-1)!;
      expect(seen.path).to.equal('/v1/chat/completions');
      expect(seen.headers.authorization).to.equal('Bearer sk-sim-upstream-key-0001');
      expect(JSON.stringify(seen.headers)).not.to.include(TEST_LICENSE);
      expect(seen.body).to.deep.include({ model: 'gpt-4.1-mini', max_completion_tokens: 64 });
      expect((seen.body as { messages: unknown[] }).messages[0]).to.deep.equal({ role: 'system', content: 'Be brief.' });
    });

    it('serves a model id with slashes (OpenRouter, Hugging Face), which the SDK sends unencoded, whole and streamed', async () => {
      for (const model of ['openai/gpt-4o', 'meta-llama/Llama-3.1-8B-Instruct']) {
        const response = await google.models.generateContent({ model, contents: 'hello slash' });
        expect(response.text, model).to.equal('Echo: hello slash');
        expect(sim.requests.at(-1)!.body).to.deep.include({ model });
      }
      let text = '';
      for await (const chunk of await google.models.generateContentStream({ model: 'openai/gpt-4o', contents: 'streamed slash' })) text += chunk.text ?? '';
      expect(text).to.equal('Echo: streamed slash');
      expect((await google.models.countTokens({ model: 'openai/gpt-4o', contents: 'count me' })).totalTokens).to.be.greaterThan(0);
    });

    it('streams generateContentStream (?alt=sse) chunk by chunk, usage in the last chunk', async () => {
      const stream = await google.models.generateContentStream({ model: 'gpt-4.1-mini', contents: 'stream me [sim:chunks=4]' });
      const chunks: GenerateContentResponse[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      const texts = chunks.map((chunk) => chunk.text ?? '');
      expect(texts.join('')).to.equal('Echo: stream me');
      expect(texts.filter(Boolean).length).to.be.at.least(4);
      const last = chunks.at(-1)!;
      expect(last.candidates?.[0].finishReason).to.equal('STOP');
      expect(last.usageMetadata?.promptTokenCount).to.be.greaterThan(0);
      expect(last.usageMetadata?.candidatesTokenCount).to.be.greaterThan(0);
      expect((sim.requests.at(-1)!.body as { stream?: boolean }).stream).to.equal(true);
    });

    for (const streaming of [false, true]) {
      it(`makes a function-call round trip (${streaming ? 'stream' : 'non-stream'})`, async () => {
        const question: Content = { role: 'user', parts: [{ text: 'weather in Paris? [sim:tool]' }] };
        const config = { tools: [GEMINI_WEATHER] };
        let calls: GenerateContentResponse['functionCalls'];
        let modelTurn: Content | undefined;
        if (streaming) {
          const chunks: GenerateContentResponse[] = [];
          for await (const chunk of await google.models.generateContentStream({ model: 'gpt-4.1-mini', contents: [question], config })) chunks.push(chunk);
          calls = chunks.flatMap((chunk) => quietly(() => chunk.functionCalls) ?? []);
          modelTurn = { role: 'model', parts: chunks.flatMap((chunk) => chunk.candidates?.[0].content?.parts ?? []) };
          expect(chunks.at(-1)!.usageMetadata?.totalTokenCount).to.be.greaterThan(0);
        } else {
          const response = await google.models.generateContent({ model: 'gpt-4.1-mini', contents: [question], config });
          calls = quietly(() => response.functionCalls);
          modelTurn = response.candidates?.[0].content;
          expect(response.usageMetadata?.totalTokenCount).to.be.greaterThan(0);
        }
        expect(calls).to.have.length(1);
        expect(calls![0].name).to.equal('get_weather');
        expect(calls![0].args).to.deep.equal({ city: 'x' });
        const upstreamTools = (sim.requests.at(-1)!.body as { tools: Array<{ function: { name: string } }> }).tools;
        expect(upstreamTools.map((tool) => tool.function.name)).to.deep.equal(['get_weather']);

        const contents: Content[] = [
          question,
          modelTurn!,
          { role: 'user', parts: [{ functionResponse: { id: calls![0].id, name: 'get_weather', response: { result: 'sunny, 21 C' } } }] },
        ];
        const answer = await google.models.generateContent({ model: 'gpt-4.1-mini', contents, config });
        expect(answer.text).to.equal('Tool said: sunny, 21 C');
        const upstreamMessages = (sim.requests.at(-1)!.body as { messages: Array<Record<string, unknown>> }).messages;
        expect(upstreamMessages.at(-1)).to.deep.include({ role: 'tool', content: 'sunny, 21 C' });
        const assistant = upstreamMessages.at(-2)!;
        expect(assistant.role).to.equal('assistant');
        const call = (assistant.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>)[0];
        expect(call.function.name).to.equal('get_weather');
        expect(JSON.parse(call.function.arguments)).to.deep.equal({ city: 'x' });
        expect(upstreamMessages.at(-1)!.tool_call_id).to.equal(call.id);
      });
    }

    it('streams :streamGenerateContent without alt=sse as a JSON array, element by element', async () => {
      const res = await fetch(`${gw.url}/openai/v1beta/models/gpt-4.1-mini:streamGenerateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': TEST_LICENSE, 'content-type': 'application/json' },
        // A pause between upstream chunks, so that each element reaches the client in its own read.
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'array me [sim:chunks=3] [sim:delay=40]' }] }] }),
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      const { elements, completedAtRead } = await readJsonArrayElements(res.body!);
      expect(new Set(completedAtRead).size, 'elements arrived in separate reads').to.be.at.least(3);
      type Element = { candidates?: Array<{ content?: { parts?: Array<{ text?: string }> }; finishReason?: string }>; usageMetadata?: { totalTokenCount?: number } };
      const typed = elements as Element[];
      expect(typed.length).to.be.at.least(3);
      const text = typed.map((element) => (element.candidates?.[0]?.content?.parts ?? []).map((part) => part.text ?? '').join('')).join('');
      expect(text).to.equal('Echo: array me');
      expect(typed.at(-1)!.candidates?.[0].finishReason).to.equal('STOP');
      expect(typed.at(-1)!.usageMetadata?.totalTokenCount).to.be.greaterThan(0);
    });

    it('answers a 400 in the Gemini shape for empty contents, without calling upstream', async () => {
      const res = await fetch(`${gw.url}/openai/v1beta/models/gpt-4.1-mini:generateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': TEST_LICENSE, 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [] }),
      });
      expect(res.status).to.equal(400);
      const body = (await res.json()) as { error: { code: number; status: string; message: string } };
      expect(body.error.code).to.equal(400);
      expect(body.error.status).to.equal('INVALID_ARGUMENT');
      expect(body.error.message).to.include('contents');
      expect(sim.requests).to.have.length(0);
    });
  });
});

describe('e2e: a Responses client on an OpenAI-compatible service without the Responses API (responses: "chat")', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;
  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway({
      deepseek: { plugin: 'openai', baseUrl: sim.openaiUrl, responses: 'chat', credentials: [{ apiKey: 'sk-sim-upstream-key-0001' }] },
      openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-key-0001' }] },
    });
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(() => sim.reset());

  it('answers responses.create, whole and streamed, through chat completions; the default platform passes it through', async () => {
    const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/deepseek/v1`, maxRetries: 0 });
    const whole = await client.responses.create({ model: 'deepseek-chat', instructions: 'Be brief.', input: 'hello codex' });
    expect(whole.output_text).to.equal('Echo: hello codex');
    expect(sim.requests.at(-1)!.path).to.equal('/v1/chat/completions');
    const events: string[] = [];
    let text = '';
    for await (const event of await client.responses.create({ model: 'deepseek-chat', input: 'hello stream', stream: true })) {
      events.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).to.equal('Echo: hello stream');
    expect(events.at(-1)).to.equal('response.completed');
    expect(sim.requests.at(-1)!.path).to.equal('/v1/chat/completions');
    const passthrough = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
    await passthrough.responses.create({ model: 'gpt-4.1', input: 'hello' });
    expect(sim.requests.at(-1)!.path).to.equal('/v1/responses');
  });
});
