import { expect } from 'chai';
import OpenAI from 'openai';
import { startSimulator, type Simulator } from '../../simulator';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';

describe('e2e: openai SDK → gateway → simulator (openai plugin)', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let client: OpenAI;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway(
      { openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-key-0001' }] } },
      { limits: { jsonBodyBytes: 64 * 1024, fileBytes: 1024 } },
    );
    client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(() => sim.reset());

  it('answers a chat completion, with the upstream key swapped in', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hello there' }] });
    expect(completion.choices[0].message.content).to.equal('Echo: hello there');
    expect(completion.usage?.total_tokens).to.be.a('number');
    const seen = sim.requests.at(-1)!;
    expect(seen.headers.authorization).to.equal('Bearer sk-sim-upstream-key-0001');
    expect(JSON.stringify(seen.headers)).not.to.include(TEST_LICENSE);
  });

  it('streams a chat completion chunk by chunk', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'stream me [sim:chunks=5]' }],
    });
    const pieces: string[] = [];
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(pieces.join('')).to.equal('Echo: stream me');
    expect(pieces.length).to.be.at.least(5);
    expect(usage?.total_tokens).to.be.a('number');
  });

  it('forwards the request body byte for byte on the passthrough path', async () => {
    const body = '{"model":"gpt-4.1-mini",  "messages":[{"role":"user","content":"exact \\u00e9 bytes"}],"unknown_field":{"kept":true}}';
    const res = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).to.equal(200);
    expect(sim.requests.at(-1)!.rawBody.toString('utf8')).to.equal(body);
  });

  it('answers 401 in the OpenAI shape for a wrong license, without calling upstream', async () => {
    const bad = new OpenAI({ apiKey: 'wrong-license', baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
    const error = await bad.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).message).to.match(/license/);
    expect(sim.requests).to.have.length(0);
  });

  it('answers 400 naming the field for a body without messages', async () => {
    const error = await client.chat.completions
      .create({ model: 'gpt-4.1-mini' } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).to.include('messages');
    expect(sim.requests).to.have.length(0);
  });

  const rawCases: Array<[string, RequestInit & { path?: string }, number, RegExp]> = [
    ['malformed JSON', { body: '{"model": "m", "messages": [' }, 400, /not valid JSON/],
    ['a JSON array body', { body: '[1,2]' }, 400, /must be a JSON object/],
    ['an empty body', { body: '' }, 400, /empty/],
    ['a form content type', { body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415, /application\/json/],
    ['a body over the limit', { body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(70 * 1024) }] }) }, 413, /larger than the limit/],
    ['an unknown platform', { path: '/nope/v1/chat/completions', body: '{}' }, 404, /no platform "nope"/],
    ['an unknown route', { path: '/openai/v1/nothing-here', body: '{}' }, 404, /no route/],
  ];
  for (const [name, init, status, message] of rawCases) {
    it(`answers ${status} in the OpenAI shape for ${name}`, async () => {
      const res = await fetch(`${gw.url}${init.path ?? '/openai/v1/chat/completions'}`, {
        method: 'POST',
        body: init.body,
        headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
      });
      expect(res.status).to.equal(status);
      const body = (await res.json()) as { error: { message: string; type: string } };
      expect(body.error.message).to.match(message);
      expect(body.error.type).to.be.a('string');
      expect(JSON.stringify(body)).not.to.match(/at .*\.ts:\d+/);
    });
  }

  it('maps an upstream 500 to a 500 the SDK raises', async () => {
    const error = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'boom [sim:error=500]' }] }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.InternalServerError);
  });

  it('passes a mid-stream failure on as the stream error the SDK raises', async () => {
    const stream = await client.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x [sim:midstream-error]' }] });
    const received: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.APIError);
    expect(received.join('')).to.have.length.greaterThan(0);
  });

  it('aborts the upstream request within 2 s when the client disconnects mid-stream', async () => {
    const aborted = new Promise<number>((resolve) => sim.on('aborted', () => resolve(Date.now())));
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'm', stream: true, messages: [{ role: 'user', content: 'slow [sim:chunks=50] [sim:delay=200]' }] },
      { signal: controller.signal },
    );
    let abortedAt = 0;
    await (async () => {
      for await (const _chunk of stream) {
        abortedAt = Date.now();
        controller.abort();
      }
    })().catch(() => undefined);
    const upstreamClosedAt = await Promise.race([aborted, new Promise<number>((_, reject) => setTimeout(() => reject(new Error('upstream not aborted within 2 s')), 2000))]);
    expect(upstreamClosedAt - abortedAt).to.be.lessThan(2000);
    expect(sim.requests.at(-1)?.aborted).to.equal(true);
  });

  it('serves /healthz without a license', async () => {
    const res = await fetch(`${gw.url}/healthz`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.include({ status: 'ok' });
  });

  it('echoes x-request-id', async () => {
    const res = await fetch(`${gw.url}/healthz`, { headers: { 'x-request-id': 'req-abc-123' } });
    expect(res.headers.get('x-request-id')).to.equal('req-abc-123');
  });
});
