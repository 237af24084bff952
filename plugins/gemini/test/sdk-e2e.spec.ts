import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI, type FunctionDeclaration } from '@google/genai';
import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startSimulator, type Simulator } from '../../../simulator';
import { startGateway, TEST_ADMIN_KEY, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { SAFETY_OFF } from './helpers';

const SIM_KEY = 'AIzaSy-sim-upstream-key-0001';
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

type SimPart = { text?: string; inlineData?: { mimeType: string; data: string }; functionCall?: unknown; functionResponse?: { name: string; response: unknown } };
type SimBody = { contents: Array<{ role?: string; parts: SimPart[] }>; safetySettings?: unknown; generationConfig?: Record<string, unknown> };

describe('e2e: official SDKs → gateway → simulator (gemini plugin)', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let media: http.Server;
  let mediaUrl: string;
  let genai: GoogleGenAI;
  let openai: OpenAI;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    media = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from(PNG_BASE64, 'base64'));
    });
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
    mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}/photo.png`;
    gw = await startGateway(
      {
        gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: SIM_KEY }] },
        rotating: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIzaSy-limited-key-0002' }, { apiKey: SIM_KEY }] },
      },
      // The media server is on loopback: this gateway's operator allows private addresses.
      { media: { maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivateAddresses: true } },
    );
    genai = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${gw.url}/gemini`, retryOptions: { attempts: 1 } } });
    openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/gemini/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gw.close();
    await sim.close();
    await new Promise((resolve) => media.close(resolve));
  });
  beforeEach(() => sim.reset());

  const lastBody = (): SimBody => sim.requests.at(-1)!.body as SimBody;

  describe('@google/genai on the native path', () => {
    it('generateContent: the answer comes back, the upstream sees our key and the default safety settings', async () => {
      const response = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello there' });
      expect(response.text).to.equal('Echo: hello there');
      expect(response.usageMetadata?.totalTokenCount).to.be.a('number');
      const seen = sim.requests.at(-1)!;
      expect(seen.path).to.equal('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(seen.headers['x-goog-api-key']).to.equal(SIM_KEY);
      expect(JSON.stringify(seen.headers)).not.to.include(TEST_LICENSE);
      expect(lastBody().safetySettings).to.deep.equal(SAFETY_OFF);
    });

    it('generateContentStream: SSE chunks arrive one by one', async () => {
      const stream = await genai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'stream me please [sim:chunks=4]' });
      const pieces: string[] = [];
      for await (const chunk of stream) pieces.push(chunk.text ?? '');
      expect(pieces.join('')).to.equal('Echo: stream me please');
      expect(pieces.length).to.be.at.least(4);
      expect(sim.requests.at(-1)!.query.alt).to.equal('sse');
    });

    it('function calling: the SDK reads the call, and the function response goes back', async () => {
      const weather: FunctionDeclaration = {
        name: 'get_weather',
        parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      };
      const first = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'weather? [sim:tool]', config: { tools: [{ functionDeclarations: [weather] }] } });
      expect(first.functionCalls?.[0]).to.deep.include({ name: 'get_weather', args: { city: 'x' } });
      const second = await genai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: [
          { role: 'user', parts: [{ text: 'weather? [sim:tool]' }] },
          first.candidates![0].content!,
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: 'sunny' } } }] },
        ],
        config: { tools: [{ functionDeclarations: [weather] }] },
      });
      expect(second.text).to.equal('Tool said: sunny');
    });

    it('countTokens passes through', async () => {
      const counted = await genai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'count these words' });
      expect(counted.totalTokens).to.be.a('number').above(0);
    });

    it('a rate-limited key is rotated out without the client noticing', async () => {
      const rotating = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${gw.url}/rotating`, retryOptions: { attempts: 1 } } });
      const response = await rotating.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
      expect(response.text).to.equal('Echo: hi');
      expect(sim.requests.map((r) => r.headers['x-goog-api-key'])).to.deep.equal(['AIzaSy-limited-key-0002', SIM_KEY]);
      const view = (await (await fetch(`${gw.url}/admin/credentials/rotating`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } })).json()) as { credentials: Array<{ state: string }> };
      expect(view.credentials.map((c) => c.state)).to.deep.equal(['cooling_down', 'healthy']);
    });

    it('a refused media type reaches the SDK as an error with status 415', async () => {
      const error = await genai.models
        .generateContent({ model: 'gemini-2.5-flash', contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/gif', data: 'R0lGODlhAQABAAAAACw=' } }] }] })
        .catch((e: unknown) => e);
      expect((error as { status?: number }).status).to.equal(415);
      expect(sim.requests).to.have.length(0);
    });
  });

  describe('anthropic SDK, translated to Gemini', () => {
    it('streams a message with thinking blocks and counts tokens', async () => {
      const anthropic = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/gemini`, maxRetries: 0 });
      const stream = anthropic.messages.stream({ model: 'gemini-2.5-flash-thinking', max_tokens: 1024, messages: [{ role: 'user', content: 'ponder [sim:thinking]' }] });
      const message = await stream.finalMessage();
      expect(message.content.map((block) => block.type)).to.deep.equal(['thinking', 'text']);
      expect(message.content[1]).to.deep.include({ type: 'text', text: 'Echo: ponder' });
      expect(sim.requests.at(-1)!.query.alt).to.equal('sse');

      const counted = await anthropic.messages.countTokens({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'count these words' }] });
      expect(counted.input_tokens).to.be.a('number').above(0);
      expect(sim.requests.at(-1)!.path).to.equal('/v1beta/models/gemini-2.5-flash:countTokens');
    });
  });

  describe('openai SDK, translated to Gemini', () => {
    it('chat with an image by URL (fetched and inlined by the gateway) and by data URI', async () => {
      const completion = await openai.chat.completions.create({
        model: 'gemini-2.5-flash',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'describe these' },
              { type: 'image_url', image_url: { url: mediaUrl } },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
            ],
          },
        ],
      });
      expect(completion.choices[0].message.content).to.equal('Echo: describe these');
      const parts = lastBody().contents[0].parts;
      expect(parts.slice(1)).to.deep.equal([
        { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } },
        { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } },
      ]);
    });

    it('a tool round trip: call with arguments, then the result goes back as a functionResponse', async () => {
      const tools: OpenAI.ChatCompletionTool[] = [
        { type: 'function', function: { name: 'lookup', description: 'Look up a word', parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'], additionalProperties: false } } },
      ];
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'define gateway [sim:tool]' }];
      const first = await openai.chat.completions.create({ model: 'gemini-2.5-flash', messages, tools });
      const call = first.choices[0].message.tool_calls?.[0];
      expect(first.choices[0].finish_reason).to.equal('tool_calls');
      expect(call?.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : undefined).to.deep.equal(['lookup', { word: 'x' }]);

      messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call!.id, content: 'a door between networks' });
      const second = await openai.chat.completions.create({ model: 'gemini-2.5-flash', messages, tools });
      expect(second.choices[0].message.content).to.equal('Tool said: a door between networks');
      const contents = lastBody().contents;
      expect(contents.at(-1)?.parts[0].functionResponse?.name).to.equal('lookup');
    });

    it('thinking with the -thinking suffix: reasoning_content, streamed and not', async () => {
      const completion = await openai.chat.completions.create({ model: 'gemini-2.5-flash-thinking', messages: [{ role: 'user', content: 'think [sim:thinking]' }] });
      const message = completion.choices[0].message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
      expect(message.reasoning_content).to.equal('The user wants their words echoed back. I will repeat them.');
      expect(message.content).to.equal('Echo: think');
      expect(sim.requests.at(-1)!.path).to.equal('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(lastBody().generationConfig?.thinkingConfig).to.deep.equal({ includeThoughts: true });

      const stream = await openai.chat.completions.create({ model: 'gemini-2.5-flash-thinking', stream: true, messages: [{ role: 'user', content: 'think [sim:thinking]' }] });
      let reasoning = '';
      let content = '';
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string } | undefined;
        reasoning += delta?.reasoning_content ?? '';
        content += delta?.content ?? '';
      }
      expect(reasoning).to.equal('The user wants their words echoed back. I will repeat them.');
      expect(content).to.equal('Echo: think');
    });

    it('a refused media type is a 415 the SDK surfaces', async () => {
      const error = await openai.chat.completions
        .create({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' } }] }] })
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).to.equal(415);
      expect((error as Error).message).to.include('image/gif');
    });
  });
});
