import { expect } from 'chai';
import nock from 'nock';
import { Agent, request } from 'node:http';
import { startSimulator, type RecordedRequest, type Simulator } from '../../simulator';
import { post, waitFor } from './raw-client';

const OPENAI_AUTH = { authorization: 'Bearer sk-test' };
const ANTHROPIC_AUTH = { 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01' };

/** One streaming request per vendor, carrying the given directive text. */
function streamRequest(sim: Simulator, vendor: Exclude<RecordedRequest['vendor'], 'claude-ai'>, text: string): { url: string; headers: Record<string, string>; body: unknown } {
  switch (vendor) {
    case 'anthropic':
      return { url: `${sim.anthropicUrl}/v1/messages`, headers: ANTHROPIC_AUTH, body: { model: 'c', max_tokens: 8, stream: true, messages: [{ role: 'user', content: text }] } };
    case 'gemini':
      return { url: `${sim.geminiUrl}/v1beta/models/g:streamGenerateContent?alt=sse`, headers: { 'x-goog-api-key': 'k' }, body: { contents: [{ parts: [{ text }] }] } };
    case 'openai':
      return { url: `${sim.openaiUrl}/v1/chat/completions`, headers: OPENAI_AUTH, body: { model: 'o', stream: true, messages: [{ role: 'user', content: text }] } };
  }
}

describe('simulator server', () => {
  let sim: Simulator;

  before(async () => {
    sim = await startSimulator();
  });
  after(() => sim.close());
  beforeEach(() => sim.reset());

  it('mounts the three vendors under their prefixes on one loopback port', () => {
    expect(sim.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sim.anthropicUrl).to.equal(`${sim.url}/anthropic`);
    expect(sim.geminiUrl).to.equal(`${sim.url}/gemini`);
    expect(sim.openaiUrl).to.equal(`${sim.url}/openai`);
  });

  it('records each request with vendor, path below the prefix, query, headers and bodies', async () => {
    await post(`${sim.anthropicUrl}/v1/messages?beta=true`, { model: 'c', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }, { ...ANTHROPIC_AUTH, 'anthropic-beta': 'x-1' });
    const [entry] = sim.requests;
    expect(entry).to.deep.include({ vendor: 'anthropic', method: 'POST', path: '/v1/messages', query: { beta: 'true' }, aborted: false });
    expect(entry.headers['anthropic-beta']).to.equal('x-1');
    expect(entry.body).to.deep.equal({ model: 'c', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
    expect(JSON.parse(entry.rawBody.toString('utf8'))).to.deep.equal(entry.body);

    await fetch(`${sim.openaiUrl}/v1/chat/completions`, { method: 'POST', headers: OPENAI_AUTH, body: 'not json' });
    expect(sim.requests[1].body).to.equal(undefined);
    expect(sim.requests[1].rawBody.toString()).to.equal('not json');
  });

  it('answers 404 outside the vendor prefixes without recording', async () => {
    const response = await fetch(`${sim.url}/azure/v1/chat`);
    expect(response.status).to.equal(404);
    expect(sim.requests).to.have.length(0);
  });

  it('keeps only the most recent 1000 requests, and reset() empties the same array', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const get = (): Promise<void> =>
      new Promise((resolve, reject) => {
        request(`${sim.openaiUrl}/v1/models`, { agent, headers: OPENAI_AUTH }, (res) => {
          res.resume();
          res.on('end', resolve);
        }).on('error', reject).end();
      });
    for (let batch = 0; batch < 21; batch += 1) await Promise.all(Array.from({ length: 50 }, get));
    agent.destroy();
    const requests = sim.requests;
    expect(requests).to.have.length(1000);
    sim.reset();
    expect(requests).to.have.length(0);
    expect(sim.requests).to.equal(requests);
  });

  it('reuses keep-alive connections', async () => {
    // nock's interceptor hands each request a fresh socket; take it out of the way to see real reuse.
    nock.restore();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const reused: boolean[] = [];
    try {
      for (let i = 0; i < 2; i += 1) {
        await new Promise<void>((resolve, reject) => {
          const req = request(`${sim.openaiUrl}/v1/models`, { agent, headers: OPENAI_AUTH }, (res) => {
            reused.push(req.reusedSocket);
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', reject).end();
        });
      }
    } finally {
      agent.destroy();
      nock.activate();
    }
    expect(reused).to.deep.equal([false, true]);
  });

  for (const vendor of ['anthropic', 'gemini', 'openai'] as const) {
    it(`marks a ${vendor} stream aborted, and emits 'aborted', when the client disconnects mid-stream`, async () => {
      const aborted: RecordedRequest[] = [];
      sim.on('aborted', (r) => aborted.push(r));
      const { url, headers, body } = streamRequest(sim, vendor, 'long one [sim:chunks=20] [sim:delay=50]');
      const controller = new AbortController();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: controller.signal });
      const reader = response.body?.getReader();
      await reader?.read();
      controller.abort();
      await waitFor(() => sim.requests[0]?.aborted === true);
      expect(aborted.filter((r) => r.vendor === vendor)).to.have.length(1);
      expect(aborted.find((r) => r.vendor === vendor)).to.equal(sim.requests[0]);
    });
  }

  it('leaves aborted false for a stream read to the end', async () => {
    const { url, headers, body } = streamRequest(sim, 'openai', 'short');
    await post(url, body, headers);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sim.requests[0].aborted).to.equal(false);
  });

  it('[sim:hang] sends stream headers and then nothing, until the client gives up', async () => {
    const { url, headers, body } = streamRequest(sim, 'anthropic', '[sim:hang]');
    const controller = new AbortController();
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: controller.signal });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.include('text/event-stream');
    const read = response.body?.getReader().read();
    const outcome = await Promise.race([read, new Promise((resolve) => setTimeout(() => resolve('pending'), 150))]);
    expect(outcome).to.equal('pending');
    controller.abort();
    await read?.catch(() => undefined);
    await waitFor(() => sim.requests[0].aborted);
  });
});

describe('simulator options and shutdown', () => {
  it('close() ends hung requests and stops listening', async () => {
    const sim = await startSimulator();
    const hung = fetch(`${sim.openaiUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...OPENAI_AUTH },
      body: JSON.stringify({ model: 'o', messages: [{ role: 'user', content: '[sim:hang]' }] }),
    }).then(
      () => 'answered',
      () => 'failed',
    );
    await waitFor(() => sim.requests.length === 1);
    await sim.close();
    expect(await hung).to.equal('failed');
    expect(sim.requests[0].aborted).to.equal(false);
    const after = await fetch(`${sim.openaiUrl}/v1/models`, { headers: OPENAI_AUTH }).then(() => 'answered', () => 'refused');
    expect(after).to.equal('refused');
  });

  it('applies chunks, chunkDelayMs and latencyMs', async () => {
    const sim = await startSimulator({ chunks: 5, chunkDelayMs: 30, latencyMs: 100 });
    try {
      const started = Date.now();
      const raw = await post(`${sim.openaiUrl}/v1/chat/completions`, { model: 'o', stream: true, messages: [{ role: 'user', content: 'five pieces' }] }, OPENAI_AUTH);
      const elapsed = Date.now() - started;
      const contents = raw.text.split('\n\n').filter((e) => e.includes('"content":"') && !e.includes('"content":""'));
      expect(contents).to.have.length(5);
      expect(elapsed).to.be.at.least(200); // 100 latency + 5 x 30 per chunk, minus timer slack
    } finally {
      await sim.close();
    }
  });

  it('listens on the port it is given', async () => {
    const probe = await startSimulator();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const sim = await startSimulator({ port, host: '127.0.0.1' });
    try {
      expect(sim.url).to.equal(`http://127.0.0.1:${port}`);
    } finally {
      await sim.close();
    }
  });
});
