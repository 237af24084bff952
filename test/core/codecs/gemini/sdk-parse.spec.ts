import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI, FunctionCallingConfigMode, type GenerateContentResponse } from '@google/genai';
import { expect } from 'chai';
import { geminiCodec } from '../../../../core/codecs/gemini';
import { GatewayError } from '../../../../core/errors/gateway-error';
import { formatSseEvent } from '../../../../core/sse/format-sse-event';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import type { UnifiedResponse } from '../../../../core/unified/unified-response';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';

/** What the fake upstream answers: status, headers and body pieces written one by one. */
interface Reply {
  status: number;
  headers: Record<string, string>;
  pieces: string[];
}

interface Seen {
  url: string;
  body: unknown;
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
const SSE_HEADERS = { 'content-type': 'text/event-stream' };

/** The SDK's getters log a warning when a response mixes text and calls; keep the test output clean. */
function quietly<T>(read: () => T): T {
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return read();
  } finally {
    console.warn = warn;
  }
}

function streamReply(events: UnifiedStreamEvent[], request: UnifiedRequest, lineEnd: '\n' | '\r\n'): Reply {
  const encoder = geminiCodec.createStreamEncoder(request);
  const pieces = events
    .flatMap((e) => encoder.push(e))
    .map((w) => (lineEnd === '\n' ? formatSseEvent(w) : `data: ${w.data}\r\n\r\n`));
  return { status: 200, headers: SSE_HEADERS, pieces };
}

describe('Gemini SDK (@google/genai) parses what the gemini codec produces', () => {
  let server: Server;
  let ai: GoogleGenAI;
  let reply: (seen: Seen) => Reply;
  const seen: Seen[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const entry: Seen = { url: req.url ?? '', body: text ? (JSON.parse(text) as unknown) : undefined };
        seen.push(entry);
        const { status, headers, pieces } = reply(entry);
        res.writeHead(status, headers);
        // Separate writes so the SDK meets the events as separate network reads.
        const write = (i: number): void => {
          if (i === pieces.length) {
            res.end();
            return;
          }
          res.write(pieces[i], () => setImmediate(() => write(i + 1)));
        };
        write(0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    ai = new GoogleGenAI({ apiKey: 'x', httpOptions: { baseUrl: `http://127.0.0.1:${port}` } });
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it('generateContent: the SDK request decodes, and the SDK reads text, function calls, thoughts and usage back', async () => {
    let decoded: UnifiedRequest | undefined;
    const answer: UnifiedResponse = {
      id: 'msg_01XYZ',
      model: 'claude-sonnet-4-6',
      created: 0,
      content: [
        { type: 'reasoning', text: 'The user wants weather.', provider: 'messages' },
        { type: 'text', text: 'Checking both cities.' },
        { type: 'tool_call', id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool_call', id: 'toolu_02', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 40, outputTokens: 25, totalTokens: 65, reasoningTokens: 10 },
    };
    reply = ({ url, body }) => {
      const model = /\/models\/([^:]+):generateContent$/.exec(url)?.[1];
      decoded = geminiCodec.decodeRequest(body, { model, stream: false });
      return { status: 200, headers: JSON_HEADERS, pieces: [JSON.stringify(geminiCodec.encodeResponse(answer, decoded))] };
    };

    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: "What's the weather in Paris and Tokyo?",
      config: {
        systemInstruction: 'Be brief.',
        temperature: 0.1,
        topK: 32,
        thinkingConfig: { includeThoughts: true, thinkingBudget: 512 },
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Weather for a city',
                parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } },
      },
    });

    expect(seen[0].url).to.equal('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(decoded).to.deep.include({
      model: 'gemini-2.5-flash',
      system: ['Be brief.'],
      temperature: 0.1,
      topK: 32,
      toolChoice: 'auto',
      reasoning: { enabled: true, budgetTokens: 512, includeThoughts: true },
    });
    expect(decoded?.messages).to.deep.equal([{ role: 'user', content: [{ type: 'text', text: "What's the weather in Paris and Tokyo?" }] }]);
    expect(decoded?.tools?.[0].parameters).to.deep.include({ additionalProperties: false });

    expect(quietly(() => response.text)).to.equal('Checking both cities.');
    expect(response.functionCalls).to.deep.equal([
      { id: 'toolu_01', name: 'get_weather', args: { city: 'Paris' } },
      { id: 'toolu_02', name: 'get_weather', args: { city: 'Tokyo' } },
    ]);
    const parts = response.candidates?.[0].content?.parts ?? [];
    expect(parts[0]).to.deep.equal({ text: 'The user wants weather.', thought: true });
    expect(response.candidates?.[0].finishReason).to.equal('STOP');
    expect(response.usageMetadata).to.deep.include({ promptTokenCount: 40, candidatesTokenCount: 15, thoughtsTokenCount: 10, totalTokenCount: 65 });
    expect(response.responseId).to.equal('msg_01XYZ');
    expect(response.modelVersion).to.equal('claude-sonnet-4-6');
  });

  it('generateContent: the next turn the SDK sends (function response with the echoed id) decodes to a tool result', async () => {
    let decoded: UnifiedRequest | undefined;
    reply = ({ body }) => {
      decoded = geminiCodec.decodeRequest(body, { model: 'gemini-2.5-flash' });
      const answer: UnifiedResponse = {
        id: 'r2',
        model: 'm',
        created: 0,
        content: [{ type: 'text', text: 'Sunny.' }],
        finishReason: 'stop',
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      };
      return { status: 200, headers: JSON_HEADERS, pieces: [JSON.stringify(geminiCodec.encodeResponse(answer, decoded))] };
    };
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        { role: 'model', parts: [{ functionCall: { id: 'toolu_01', name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'toolu_01', name: 'get_weather', response: { output: 'sunny' } } }] },
      ],
    });
    expect(response.text).to.equal('Sunny.');
    expect(decoded?.messages[2]).to.deep.equal({
      role: 'tool',
      content: [{ type: 'tool_result', toolCallId: 'toolu_01', name: 'get_weather', content: [{ type: 'text', text: 'sunny' }] }],
    });
  });

  it('generateContent: generated images come back as inlineData (`.data`)', async () => {
    const request: UnifiedRequest = { model: 'gemini-2.5-flash-image', system: [], messages: [], stream: false };
    const answer: UnifiedResponse = {
      id: 'img',
      model: 'gemini-2.5-flash-image',
      created: 0,
      content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG } }],
      finishReason: 'stop',
      usage: { inputTokens: 5, outputTokens: 1290, totalTokens: 1295 },
    };
    reply = () => ({ status: 200, headers: JSON_HEADERS, pieces: [JSON.stringify(geminiCodec.encodeResponse(answer, request))] });
    const response = await ai.models.generateContent({ model: 'gemini-2.5-flash-image', contents: 'a pixel' });
    expect(response.data).to.equal(PNG);
  });

  for (const lineEnd of ['\n', '\r\n'] as const) {
    const framing = lineEnd === '\n' ? 'LF' : 'CRLF';

    it(`generateContentStream (SSE, ${framing}): text deltas, thoughts, usage and finish reason`, async () => {
      const request: UnifiedRequest = { model: 'gemini-2.5-flash', system: [], messages: [], stream: true, reasoning: { includeThoughts: true } };
      reply = () =>
        streamReply(
          [
            { type: 'start', id: 'chatcmpl-1', model: 'gpt-4.1-mini', created: 1 },
            { type: 'reasoning_delta', text: 'Greeting.' },
            { type: 'text_delta', text: 'Hello' },
            { type: 'text_delta', text: ', nice to ' },
            { type: 'usage', usage: { inputTokens: 13, outputTokens: 4, totalTokens: 17 } },
            { type: 'text_delta', text: 'meet you!' },
            { type: 'finish', finishReason: 'stop', usage: { inputTokens: 13, outputTokens: 51, totalTokens: 64, reasoningTokens: 44 } },
          ],
          request,
          lineEnd,
        );
      const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Say hello' });
      const chunks: GenerateContentResponse[] = [];
      for await (const chunk of stream) chunks.push(chunk);

      expect(seen[0].url).to.equal('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
      expect(chunks.map((c) => c.text ?? '').join('')).to.equal('Hello, nice to meet you!');
      expect(chunks[0].candidates?.[0].content?.parts).to.deep.equal([{ text: 'Greeting.', thought: true }]);
      const last = chunks.at(-1);
      expect(last?.candidates?.[0].finishReason).to.equal('STOP');
      expect(last?.usageMetadata).to.deep.include({ promptTokenCount: 13, candidatesTokenCount: 7, thoughtsTokenCount: 44, totalTokenCount: 64 });
      expect(last?.responseId).to.equal('chatcmpl-1');
    });

    it(`generateContentStream (SSE, ${framing}): a streamed tool call arrives whole in \`.functionCalls\``, async () => {
      const request: UnifiedRequest = { model: 'gemini-2.5-flash', system: [], messages: [], stream: true };
      reply = () =>
        streamReply(
          [
            { type: 'start', id: 'msg_1', model: 'claude-sonnet-4-6', created: 1 },
            { type: 'tool_call_start', index: 0, id: 'toolu_01', name: 'get_weather' },
            { type: 'tool_call_delta', index: 0, argumentsDelta: '' },
            { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city": "Par' },
            { type: 'tool_call_delta', index: 0, argumentsDelta: 'is", "unit": "celsius"}' },
            { type: 'tool_call_start', index: 1, id: 'toolu_02', name: 'get_weather' },
            { type: 'tool_call_delta', index: 1, argumentsDelta: '{"city":"Tokyo"}' },
            { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 20, outputTokens: 30, totalTokens: 50 } },
          ],
          request,
          lineEnd,
        );
      const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Weather?' });
      const calls: unknown[] = [];
      let usage: unknown;
      for await (const chunk of stream) {
        calls.push(...(chunk.functionCalls ?? []));
        usage = chunk.usageMetadata ?? usage;
      }
      expect(calls).to.deep.equal([
        { id: 'toolu_01', name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } },
        { id: 'toolu_02', name: 'get_weather', args: { city: 'Tokyo' } },
      ]);
      expect(usage).to.deep.include({ promptTokenCount: 20, candidatesTokenCount: 30, totalTokenCount: 50 });
    });
  }

  it('generateContentStream: a mid-stream error makes the SDK throw with the message', async () => {
    const request: UnifiedRequest = { model: 'gemini-2.5-flash', system: [], messages: [], stream: true };
    reply = () =>
      streamReply(
        [
          { type: 'start', id: 'r', model: 'm', created: 1 },
          { type: 'text_delta', text: 'partial' },
          { type: 'error', error: new GatewayError('GW_UPSTREAM_OVERLOADED', 'The model is overloaded.') },
        ],
        request,
        '\r\n',
      );
    const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'x' });
    const texts: string[] = [];
    let caught: unknown;
    try {
      for await (const chunk of stream) texts.push(chunk.text ?? '');
    } catch (error) {
      caught = error;
    }
    expect(texts).to.deep.equal(['partial']);
    expect(caught).to.be.instanceOf(Error);
    expect(String((caught as Error).message)).to.contain('The model is overloaded.');
  });

  it('an error body from encodeError is raised by the SDK with its status', async () => {
    const { status, body } = geminiCodec.encodeError(new GatewayError('GW_RATE_LIMITED', 'Quota exceeded', { upstreamType: 'RESOURCE_EXHAUSTED' }));
    reply = () => ({ status, headers: JSON_HEADERS, pieces: [JSON.stringify(body)] });
    let caught: unknown;
    try {
      await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(Error);
    expect((caught as { status?: number }).status).to.equal(429);
    expect(String((caught as Error).message)).to.contain('Quota exceeded');
  });
});
