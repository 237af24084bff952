import { ApiError, GoogleGenAI, Type, type GenerateContentResponse } from '@google/genai';
import { expect } from 'chai';
import { startSimulator, type Simulator } from '../../simulator';
import { parseSse, post } from './raw-client';
import { rejection } from '../helpers/rejection';

const MODEL = 'gemini-2.5-flash';
const TOOLS = [
  {
    functionDeclarations: [
      {
        name: 'get_weather',
        parameters: {
          type: Type.OBJECT,
          properties: { city: { type: Type.STRING }, days: { type: Type.INTEGER } },
          required: ['city', 'days'],
        },
      },
    ],
  },
];

describe('simulator gemini', () => {
  let sim: Simulator;
  let ai: GoogleGenAI;
  const key = { 'x-goog-api-key': 'AIza-test' };
  const url = (action: string, query = ''): string => `${sim.geminiUrl}/v1beta/models/${MODEL}:${action}${query}`;
  const userText = (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] });

  before(async () => {
    sim = await startSimulator();
    ai = new GoogleGenAI({ apiKey: 'AIza-test', httpOptions: { baseUrl: sim.geminiUrl } });
  });
  after(() => sim.close());
  beforeEach(() => sim.reset());

  it('answers generateContent through the SDK', async () => {
    const response = await ai.models.generateContent({ model: MODEL, contents: 'Say hello', config: { systemInstruction: 'be brief' } });
    expect(response.text).to.equal('Echo: Say hello');
    expect(response.candidates?.[0].finishReason).to.equal('STOP');
    expect(response.usageMetadata).to.deep.include({ promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 });
    expect(response.modelVersion).to.equal(MODEL);
    const request = sim.requests[0];
    expect(request).to.deep.include({ vendor: 'gemini', method: 'POST', path: `/v1beta/models/${MODEL}:generateContent` });
    expect(request.headers['x-goog-api-key']).to.equal('AIza-test');
  });

  it('streams through the SDK (alt=sse) with cumulative usage and finishReason on the last chunk only', async () => {
    const stream = await ai.models.generateContentStream({ model: MODEL, contents: 'Say hello [sim:chunks=4]' });
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.text).join('')).to.equal('Echo: Say hello');
    expect(chunks).to.have.length(4);
    expect(chunks.map((c) => c.candidates?.[0].finishReason)).to.deep.equal([undefined, undefined, undefined, 'STOP']);
    expect(chunks.map((c) => c.usageMetadata?.candidatesTokenCount)).to.deep.equal([1, 2, 3, 4]);
    expect(sim.requests[0].query).to.deep.equal({ alt: 'sse' });
  });

  it('frames alt=sse with CRLF line endings and no sentinel', async () => {
    const raw = await post(url('streamGenerateContent', '?alt=sse'), userText('hi'), key);
    expect(raw.headers.get('content-type')).to.equal('text/event-stream');
    expect(raw.text.replace(/\r\n/g, '')).not.to.include('\n');
    expect(raw.text.endsWith('\r\n\r\n')).to.equal(true);
    const events = parseSse(raw.text);
    expect(events).to.have.length(3);
    expect(raw.text).not.to.include('[DONE]');
    expect(events.every((e) => e.data.startsWith('{"candidates"'))).to.equal(true);
  });

  it('writes the default stream as one JSON array, element by element', async () => {
    const response = await fetch(url('streamGenerateContent'), { method: 'POST', headers: key, body: JSON.stringify(userText('hi [sim:delay=100]')) });
    expect(response.headers.get('content-type')).to.equal('application/json; charset=UTF-8');
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const decoder = new TextDecoder();
    const first = decoder.decode((await reader.read()).value);
    expect(first.startsWith('[{')).to.equal(true);
    expect(first).not.to.include(']}]'); // the array is not closed yet: elements arrive one by one
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += decoder.decode(part.value);
    const elements = JSON.parse(first + rest) as GenerateContentResponse[];
    expect(elements).to.have.length(3);
    expect(elements.map((e) => e.candidates?.[0].content?.parts?.[0].text).join('')).to.equal('Echo: hi');
  });

  it('calls the first declared function, with or without streaming', async () => {
    const response = await ai.models.generateContent({ model: MODEL, contents: 'weather [sim:tool]', config: { tools: TOOLS } });
    expect(response.functionCalls).to.deep.equal([{ name: 'get_weather', args: { city: 'x', days: 1 } }]);
    expect(response.candidates?.[0].content?.parts?.[0].thoughtSignature).to.be.a('string');

    const stream = await ai.models.generateContentStream({ model: MODEL, contents: 'weather [sim:tool]', config: { tools: TOOLS } });
    const calls: unknown[] = [];
    for await (const chunk of stream) calls.push(...(chunk.functionCalls ?? []));
    expect(calls).to.deep.equal([{ name: 'get_weather', args: { city: 'x', days: 1 } }]);
  });

  it('answers a functionResponse with "Tool said:"', async () => {
    const response = await ai.models.generateContent({
      model: MODEL,
      config: { tools: TOOLS },
      contents: [
        { role: 'user', parts: [{ text: 'weather [sim:tool]' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'x', days: 1 } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: 'sunny' } } }] },
      ],
    });
    expect(response.text).to.equal('Tool said: sunny');
    const structured = await ai.models.generateContent({
      model: MODEL,
      contents: [{ role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp_c: 18 } } }] }],
    });
    expect(structured.text).to.equal('Tool said: {"temp_c":18}');
  });

  it('sends a thought part and a thoughtSignature on [sim:thinking]', async () => {
    const response = await ai.models.generateContent({ model: MODEL, contents: 'ponder [sim:thinking]' });
    const parts = response.candidates?.[0].content?.parts ?? [];
    expect(parts[0].thought).to.equal(true);
    expect(parts[1].thoughtSignature).to.be.a('string');
    expect(response.text).to.equal('Echo: ponder');
    expect(response.usageMetadata?.thoughtsTokenCount).to.equal(2);

    const stream = await ai.models.generateContentStream({ model: MODEL, contents: 'ponder [sim:thinking]' });
    const thoughts: string[] = [];
    for await (const chunk of stream) {
      for (const part of chunk.candidates?.[0].content?.parts ?? []) if (part.thought) thoughts.push(part.text ?? '');
    }
    expect(thoughts).to.have.length(2);
  });

  it('answers auth failures like the Gemini API', async () => {
    const missing = await post(url('generateContent'), userText('hi'));
    expect(missing.status).to.equal(403);
    expect(JSON.parse(missing.text).error).to.include({ code: 403, status: 'PERMISSION_DENIED' });

    const bad = await post(url('generateContent'), userText('hi'), { 'x-goog-api-key': 'bad-key' });
    expect(bad.status).to.equal(400);
    const badBody = JSON.parse(bad.text) as { error: { status: string; details: { reason?: string }[] } };
    expect(badBody.error.status).to.equal('INVALID_ARGUMENT');
    expect(badBody.error.details[0].reason).to.equal('API_KEY_INVALID');

    const viaQuery = await post(url('generateContent', '?key=AIza-query'), userText('hi'));
    expect(viaQuery.status).to.equal(200);

    const banned = await post(url('generateContent'), userText('hi'), { 'x-goog-api-key': 'AIza-banned' });
    expect(banned.status).to.equal(400);
    const limited = await post(url('generateContent'), userText('hi'), { 'x-goog-api-key': 'AIza-limited' });
    expect(limited.status).to.equal(429);
    expect(JSON.parse(limited.text).error.status).to.equal('RESOURCE_EXHAUSTED');
  });

  it('answers error directives with google.rpc.Status bodies, RetryInfo on 429', async () => {
    const error = await rejection(ai.models.generateContent({ model: MODEL, contents: 'x [sim:error=429]' }));
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(429);

    const raw = await post(url('generateContent'), userText('x [sim:error=429]'), key);
    const body = JSON.parse(raw.text) as { error: { code: number; status: string; details: Record<string, unknown>[] } };
    expect(body.error).to.include({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(body.error.details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo')).to.deep.include({ retryDelay: '1s' });

    for (const [status, rpc] of [[400, 'INVALID_ARGUMENT'], [500, 'INTERNAL'], [401, 'UNAUTHENTICATED']] as const) {
      const answer = await post(url('streamGenerateContent', '?alt=sse'), userText(`x [sim:error=${status}]`), key);
      expect(answer.status).to.equal(status);
      expect(JSON.parse(answer.text).error).to.include({ code: status, status: rpc });
    }
  });

  it('sends an error chunk after one text chunk on [sim:midstream-error]', async () => {
    const sse = await post(url('streamGenerateContent', '?alt=sse'), userText('x [sim:midstream-error]'), key);
    const events = parseSse(sse.text).map((e) => JSON.parse(e.data) as Record<string, unknown>);
    expect(events).to.have.length(2);
    expect(events[1].error).to.include({ code: 500, status: 'INTERNAL' });

    const array = await post(url('streamGenerateContent'), userText('x [sim:midstream-error]'), key);
    const elements = JSON.parse(array.text) as Record<string, unknown>[];
    expect(elements.at(-1)).to.have.property('error');

    const stream = await ai.models.generateContentStream({ model: MODEL, contents: 'x [sim:midstream-error]' });
    const error = await rejection((async () => {
      for await (const chunk of stream) void chunk;
    })());
    expect(String(error)).to.include('internal error');
  });

  it('counts tokens and lists models', async () => {
    const count = await ai.models.countTokens({ model: MODEL, contents: 'abcdefgh' });
    expect(count.totalTokens).to.equal(2);
    const pager = await ai.models.list();
    const names: string[] = [];
    for await (const model of pager) names.push(model.name ?? '');
    expect(names).to.include(`models/${MODEL}`);
    const raw = await fetch(`${sim.geminiUrl}/v1beta/models`, { headers: key });
    const body = (await raw.json()) as { models: { supportedGenerationMethods: string[] }[] };
    expect(body.models[0].supportedGenerationMethods).to.include('generateContent');
  });
});
