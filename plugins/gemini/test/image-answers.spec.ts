import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import nock from 'nock';
import OpenAI from 'openai';
import { SSE_HEADERS } from '../../../test/helpers/fixtures';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { KEY_A, UPSTREAM } from './helpers';

const MODEL = 'gemini-3-pro-image-preview';
const DRAFT = 'RFJBRlQ=';
const FINAL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
type Part = Record<string, unknown>;

const event = (parts: Part[], finishReason?: string): string =>
  `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1290, totalTokenCount: 1295 }, modelVersion: MODEL })}\r\n\r\n`;

/** As Gemini 3 Pro Image streams a picture when thoughts are asked for: a thought, a draft image, the text, the image. */
const IMAGE_STREAM = [
  event([{ text: 'Composing the scene.', thought: true }]),
  event([{ inlineData: { mimeType: 'image/png', data: DRAFT }, thought: true }]),
  event([{ text: 'Here is a cat:' }]),
  event([{ inlineData: { mimeType: 'image/png', data: FINAL }, thoughtSignature: 'c2lnLWltYWdl' }], 'STOP'),
].join('');

describe('gemini plugin: images in translated answers', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }] } });
  });
  after(() => gw.close());
  afterEach(() => nock.cleanAll());

  /** Streams IMAGE_STREAM for the next call and records the contents the gateway sent. */
  function upstream(reply = IMAGE_STREAM): Array<Array<{ role: string; parts: Part[] }>> {
    const seen: Array<Array<{ role: string; parts: Part[] }>> = [];
    nock(UPSTREAM)
      .post(/:streamGenerateContent/)
      .query(true)
      .reply((_uri, body) => {
        seen.push((body as { contents: Array<{ role: string; parts: Part[] }> }).contents);
        return [200, reply, SSE_HEADERS];
      });
    return seen;
  }

  it("an image model's draft images (thought: true) are left out; the answer's image reaches a chat client", async () => {
    upstream();
    const openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/gemini/v1`, maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'draw a cat' }], reasoning_effort: 'high' });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? '';
    expect(content).to.include(FINAL);
    expect(content).not.to.include(DRAFT);
  });

  it("a chat client's next turn sends the image it was given as markdown back as the model turn's image, not as text", async () => {
    upstream();
    const openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/gemini/v1`, maxRetries: 0 });
    let answer = '';
    for await (const chunk of await openai.chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'draw a cat' }] })) answer += chunk.choices[0]?.delta?.content ?? '';
    expect(answer).to.equal(`Here is a cat:![image](data:image/png;base64,${FINAL})`);

    const seen = upstream(event([{ text: 'A blue cat.' }], 'STOP'));
    const stream = await openai.chat.completions.create({
      model: MODEL,
      stream: true,
      messages: [{ role: 'user', content: 'draw a cat' }, { role: 'assistant', content: answer }, { role: 'user', content: 'make it blue' }],
    });
    for await (const _ of stream) void _;
    const model = seen[0].find((content) => content.role === 'model');
    expect(model?.parts.map((part) => (part.text !== undefined ? `text:${String(part.text)}` : `data:${(part.inlineData as { data: string }).data}`))).to.deep.equal(['text:Here is a cat:', `data:${FINAL}`]);
    // Gemini 3.1 Flash Image refuses a model turn's image without a thought signature; this one's did not survive chat.
    expect(model?.parts.find((part) => part.inlineData)?.thoughtSignature).to.equal('skip_thought_signature_validator');
  });

  it("a Messages client's next turn sends the image it was given back, to Gemini as the model turn's image", async () => {
    upstream();
    const anthropic = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/gemini`, maxRetries: 0 });
    const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'draw a cat' }];
    const first = await anthropic.messages.stream({ model: MODEL, max_tokens: 1000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: history }).finalMessage();
    const images = first.content.filter((block) => (block.type as string) === 'image') as unknown as Array<{ source: { data: string } }>;
    expect(images.map((image) => image.source.data)).to.deep.equal([FINAL]);

    const seen = upstream(event([{ text: 'A blue cat.' }], 'STOP'));
    history.push({ role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: 'make it blue' });
    const second = await anthropic.messages.create({ model: MODEL, max_tokens: 1000, stream: true, messages: history });
    for await (const _ of second) void _;
    const model = seen[0].find((content) => content.role === 'model');
    expect(model?.parts.map((part) => (part.inlineData as { data?: string } | undefined)?.data).filter(Boolean)).to.deep.equal([FINAL]);
  });
});
