import http from 'node:http';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator, type Simulator } from '../../../simulator';
import { startGateway, TEST_ADMIN_KEY, TEST_LICENSE, type RunningGateway } from '../../helpers/start-gateway';
import { startRawUpstream } from '../../helpers/start-raw-upstream';

describe('gateway HTTP behaviour', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway({
      openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-0001' }], timeouts: { totalMs: 1500, idleMs: 400 } },
      faulty: { plugin: path.join(__dirname, 'fixtures/faulty-plugin.ts'), baseUrl: 'http://127.0.0.1:9' },
    });
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });

  const chat = (content: string, extra: Record<string, unknown> = {}) =>
    fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }], ...extra }),
    });

  describe('error families before an endpoint answers', () => {
    it('answers 401 in the Anthropic shape on /v1/messages', async () => {
      const res = await fetch(`${gw.url}/openai/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'nope', 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).to.equal(401);
      expect(await res.json()).to.deep.equal({ type: 'error', error: { type: 'authentication_error', message: 'missing or unknown license: send it as Authorization: Bearer <license>' } });
    });

    it('answers 401 in the Gemini shape on /v1beta', async () => {
      const res = await fetch(`${gw.url}/openai/v1beta/models/g:generateContent?key=nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).to.equal(401);
      const body = (await res.json()) as { error: { code: number; status: string } };
      expect(body.error).to.include({ code: 401, status: 'UNAUTHENTICATED' });
    });

    it('answers 404 in the Gemini shape for an unknown model method', async () => {
      const res = await fetch(`${gw.url}/openai/v1beta/models/g:explode`, { method: 'POST', headers: { 'x-goog-api-key': TEST_LICENSE, 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { error: { status: string; message: string } }).error).to.include({ status: 'NOT_FOUND' });
    });

    it('answers 404 in the Anthropic shape for an unknown platform on /v1/messages', async () => {
      const res = await fetch(`${gw.url}/ghost/v1/messages`, { method: 'POST', headers: { 'x-api-key': TEST_LICENSE, 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { error: { type: string } }).error.type).to.equal('not_found_error');
    });
  });

  describe('an endpoint the platform does not route', () => {
    it('answers 404 naming the platform and the endpoint', async () => {
      const res = await fetch(`${gw.url}/faulty/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' }, body: '{"model":"m","input":"x"}' });
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { error: { message: string } }).error.message).to.equal('platform "faulty" does not serve responses');
    });
  });

  describe('a faulty plugin', () => {
    it('answers a neutral 500 without internals and keeps serving', async () => {
      const res = await fetch(`${gw.url}/faulty/v1/models`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
      expect(res.status).to.equal(500);
      const text = await res.text();
      expect(text).to.include('internal gateway error');
      expect(text).not.to.include('secret internal detail');
      const again = await fetch(`${gw.url}/faulty/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' }, body: '{"model":"m","messages":[]}' });
      expect(again.status).to.equal(500);
      expect((await fetch(`${gw.url}/healthz`)).status).to.equal(200);
    });
  });

  describe('upstream timeouts', () => {
    it('answers 504 when a non-streaming upstream never answers', async () => {
      const res = await chat('wait [sim:hang]');
      expect(res.status).to.equal(504);
      expect(((await res.json()) as { error: { message: string } }).error.message).to.match(/timeout/i);
    });

    it('ends a stalled stream with the format error event when the idle timeout fires', async () => {
      const res = await chat('stall [sim:hang]', { stream: true });
      expect(res.status).to.equal(200);
      const text = await res.text();
      expect(text).to.match(/data: \{"error":\{"message":"[^"]*timeout/i);
      expect(text).not.to.include('[DONE]');
    });
  });

  describe('a client that goes away', () => {
    it('tears the upstream request down before the upstream answered, not at the total timeout', async () => {
      const upstreamAborted = new Promise<number>((resolve) => sim.on('aborted', () => resolve(Date.now())));
      const controller = new AbortController();
      const started = Date.now();
      const answer = fetch(`${gw.url}/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'wait [sim:hang]' }] }),
        signal: controller.signal,
      }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.abort();
      expect(await answer).to.be.instanceOf(Error);
      // The total timeout (1,500 ms) would also close it; the client's leaving must do it first.
      expect((await upstreamAborted) - started).to.be.lessThan(1000);
    });
  });

  it('answers an unknown route in the shape of the SDK that asked (anthropic-version, x-goog-api-key), OpenAI\'s otherwise', async () => {
    const get = (headers: Record<string, string>) => fetch(`${gw.url}/openai/v1/files`, { headers: { authorization: `Bearer ${TEST_LICENSE}`, ...headers } });
    const anthropic = await get({ 'anthropic-version': '2023-06-01' });
    expect(anthropic.status).to.equal(404);
    expect(anthropic.headers.get('request-id')).to.equal(anthropic.headers.get('x-request-id')).and.to.be.a('string');
    expect(await anthropic.json()).to.deep.include({ type: 'error' }).and.to.have.nested.property('error.type', 'not_found_error');
    const gemini = (await (await get({ 'x-goog-api-key': TEST_LICENSE })).json()) as { error: { status: string; code: number } };
    expect(gemini.error).to.include({ status: 'NOT_FOUND', code: 404 });
    const openai = (await (await get({})).json()) as { error: { code: string } };
    expect(openai.error.code).to.equal('gw_route_not_found');
  });

  describe('admin', () => {
    it('refuses a license and accepts an admin key', async () => {
      expect((await fetch(`${gw.url}/admin/platforms`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } })).status).to.equal(401);
      const res = await fetch(`${gw.url}/admin/platforms`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
      expect(res.status).to.equal(200);
      const body = (await res.json()) as { platforms: Array<{ platform: string }> };
      expect(body.platforms.map((p) => p.platform)).to.deep.equal(['openai', 'faulty']);
    });

    it('an unknown admin path is a route not found, not a platform', async () => {
      const res = await fetch(`${gw.url}/admin/nothing-here`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
      expect(res.status).to.equal(404);
      const error = ((await res.json()) as { error: { code: string; message: string } }).error;
      expect(error).to.include({ code: 'gw_route_not_found', message: 'no route for GET /admin/nothing-here' });
    });
  });
});

describe('graceful shutdown', function () {
  this.timeout(20_000);

  it('lets an open stream finish, then refuses new connections', async () => {
    const sim = await startSimulator({ port: 0 });
    const gw = await startGateway({ openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-0001' }] } });
    const res = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'slow [sim:chunks=6] [sim:delay=100]' }] }),
    });
    const closing = gw.gateway.close(5000);
    const text = await res.text();
    await closing;
    expect(text.trim().endsWith('data: [DONE]')).to.equal(true);
    const after = await fetch(`${gw.url}/healthz`).then(() => 'connected', () => 'refused');
    expect(after).to.equal('refused');
    await sim.close();
  });

  it('ends a stream still open when the grace period runs out with its error event, not a dropped connection', async () => {
    const sim = await startSimulator({ port: 0 });
    const gw = await startGateway({ openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-0001' }] } });
    const slow = 'slow [sim:chunks=40] [sim:delay=100]';
    const passthrough = streamText(`${gw.url}/openai/v1/chat/completions`, { model: 'm', stream: true, messages: [{ role: 'user', content: slow }] });
    const translated = streamText(`${gw.url}/openai/v1/messages`, { model: 'm', max_tokens: 64, stream: true, messages: [{ role: 'user', content: slow }] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const closing = gw.gateway.close(300);
    const [chat, messages] = await Promise.all([passthrough, translated]);
    await closing;
    expect(Date.now() - started).to.be.below(2000);
    expect(chat.ended && messages.ended, 'both answers ended, not dropped').to.equal(true);
    const lastChat = chat.text.trim().split('\n\n').at(-1)!;
    expect(JSON.parse(lastChat.replace(/^data: /, ''))).to.have.nested.property('error.message', 'the gateway is shutting down');
    expect(messages.text.trim().split('\n\n').at(-1)).to.match(/^event: error\ndata: \{"type":"error".*"the gateway is shutting down"/);
    await sim.close();
  });
});

describe('graceful shutdown and background work', function () {
  this.timeout(20_000);

  it('lets an async image task running at shutdown finish within the grace period; a restart serves its result', async () => {
    const upstream = await startRawUpstream();
    // The first key is rate-limited after a while: the task's retry on the second key falls within the grace period.
    upstream.handle((req, res) => {
      const limited = req.headers.authorization === 'Bearer sk-test-first-0123456789';
      setTimeout(() => {
        res.writeHead(limited ? 429 : 200, { 'content-type': 'application/json', ...(limited ? { 'retry-after': '30' } : {}) });
        res.end(limited ? JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests' } }) : JSON.stringify({ created: 1, data: [{ b64_json: 'iVBORw0KGgo=' }] }));
      }, limited ? 300 : 100);
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-grace-'));
    const config = { openai: { plugin: 'openai', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-test-first-0123456789' }, { apiKey: 'sk-test-second-012345678' }] } };
    const store = { store: { driver: 'sqlite' as const, path: path.join(dir, 'gateway.db') } };
    try {
      const first = await startGateway(config, store);
      const accepted = await fetch(`${first.url}/openai/v1/images/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-image-1', prompt: 'a cat', async: true }),
      });
      const { task_id } = (await accepted.json()) as { task_id: string };
      await first.gateway.close(5000);
      const second = await startGateway(config, store);
      const task = (await (await fetch(`${second.url}/openai/v1/images/${task_id}`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } })).json()) as { status: string };
      const keys = (await (await fetch(`${second.url}/admin/credentials/openai`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } })).json()) as {
        credentials: Array<{ state: string; requests: number }>;
      };
      await second.close();
      expect(task.status).to.equal('completed');
      // What the calls made during the grace counted is written too: the pools close after the tasks.
      expect(keys.credentials.map((key) => [key.state, key.requests])).to.deep.equal([
        ['cooling_down', 1],
        ['healthy', 1],
      ]);
    } finally {
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('graceful shutdown, ended early', function () {
  this.timeout(20_000);

  it('a second close with no grace (a second signal) ends the grace period at once, the same way', async () => {
    const sim = await startSimulator({ port: 0 });
    const gw = await startGateway({ openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-0001' }] } });
    const stream = streamText(`${gw.url}/openai/v1/chat/completions`, { model: 'm', stream: true, messages: [{ role: 'user', content: 'slow [sim:chunks=100] [sim:delay=100]' }] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const first = gw.gateway.close(60_000);
    const second = gw.gateway.close(0);
    const [answer] = await Promise.all([stream, first, second]);
    expect(answer.ended).to.equal(true);
    expect(JSON.parse(answer.text.trim().split('\n\n').at(-1)!.replace(/^data: /, ''))).to.have.nested.property('error.message', 'the gateway is shutting down');
    await sim.close();
  });
});

/** A streamed POST read to its end over node:http; `ended` is false when the connection dropped first. */
function streamText(url: string, body: unknown): Promise<{ text: string; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ text, ended: true }));
      res.on('error', () => resolve({ text, ended: false }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
