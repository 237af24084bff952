import { expect } from 'chai';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

describe('openai plugin: token counting without an upstream counter', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ openai: { plugin: 'openai', baseUrl: 'http://openai.upstream.test', credentials: [{ apiKey: 'sk-unused-000000000001' }] } });
  });
  after(() => gw.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gw.url}/openai${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('estimates /v1/messages/count_tokens in the Anthropic shape, growing with the input', async () => {
    const short = await post('/v1/messages/count_tokens', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': TEST_LICENSE });
    const long = await post('/v1/messages/count_tokens', { model: 'm', messages: [{ role: 'user', content: 'hello '.repeat(400) }] }, { 'x-api-key': TEST_LICENSE });
    const a = (await short.json()) as { input_tokens: number };
    const b = (await long.json()) as { input_tokens: number };
    expect(a.input_tokens).to.be.greaterThan(0);
    expect(b.input_tokens).to.be.greaterThan(a.input_tokens * 50);
  });

  it('answers a bad count_tokens body in the Anthropic error shape', async () => {
    const res = await post('/v1/messages/count_tokens', { model: 'm', messages: [{ role: 'robot', content: 'x' }] }, { 'x-api-key': TEST_LICENSE });
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).to.equal('error');
    expect(body.error.type).to.equal('invalid_request_error');
    expect(body.error.message).to.include('messages[0].role');
  });

  it('estimates :countTokens in the Gemini shape', async () => {
    const res = await post(`/v1beta/models/gemini-x:countTokens?key=${TEST_LICENSE}`, { contents: [{ role: 'user', parts: [{ text: 'hello world' }] }] });
    expect(res.status).to.equal(200);
    expect(((await res.json()) as { totalTokens: number }).totalTokens).to.be.greaterThan(0);
  });

  it('counts empty contents (Gemini does) rather than refuse them, as a generation would be', async () => {
    const count = await post(`/v1beta/models/gemini-x:countTokens?key=${TEST_LICENSE}`, { contents: [] });
    expect(count.status).to.equal(200);
    expect(((await count.json()) as { totalTokens: number }).totalTokens).to.be.a('number');
    const generate = await post(`/v1beta/models/gemini-x:generateContent?key=${TEST_LICENSE}`, { contents: [] });
    expect(generate.status).to.equal(400);
  });

  it('counts a :countTokens request wrapped as generateContentRequest or generate_content_request alike', async () => {
    const contents = [{ role: 'user', parts: [{ text: 'hello world, counted three ways' }] }];
    const counts: number[] = [];
    for (const body of [{ contents }, { generateContentRequest: { model: 'models/gemini-x', contents } }, { generate_content_request: { model: 'models/gemini-x', contents } }]) {
      const res = await post(`/v1beta/models/gemini-x:countTokens?key=${TEST_LICENSE}`, body);
      expect(res.status).to.equal(200);
      counts.push(((await res.json()) as { totalTokens: number }).totalTokens);
    }
    expect(counts[0]).to.be.greaterThan(0);
    expect(counts).to.deep.equal([counts[0], counts[0], counts[0]]);
  });
});
