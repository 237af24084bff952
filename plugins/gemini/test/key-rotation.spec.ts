import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import nock from 'nock';
import { fixtureJson, replayChunks, fixtureBytes, SSE_HEADERS } from '../../../test/helpers/fixtures';
import { startGateway, TEST_ADMIN_KEY, type RunningGateway } from '../../../test/helpers/start-gateway';
import { KEY_A, KEY_B, postJson, sseData, UPSTREAM } from './helpers';
import { CIVIC_INTEGRITY } from '../src/create-safety-settings';

const GENERATE = '/v1beta/models/gemini-2.5-flash:generateContent';

interface AdminView {
  platform: string;
  credentials: Array<{ id: string; kind: string; masked: string; state: string; cooldownUntil?: string; requests: number; errors: number; lastError?: string }>;
}

/** Answers each call by the key it carries; records which keys were used, in order. */
function upstreamByKey(answers: Record<string, () => [number, unknown, Record<string, string>?]>, times = 10): string[] {
  const used: string[] = [];
  nock(UPSTREAM)
    .post(/^\/v1beta\/models\//)
    .query(true)
    .times(times)
    .reply(function () {
      const key = String(this.req.headers['x-goog-api-key']);
      used.push(key);
      return (answers[key] ?? (() => [200, fixtureJson('gemini/response-basic.json')]))();
    });
  return used;
}

async function adminView(gw: RunningGateway): Promise<AdminView> {
  const res = await fetch(`${gw.url}/admin/credentials/gemini`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
  expect(res.status).to.equal(200);
  return (await res.json()) as AdminView;
}

/** The row of the key ending in `last4` (the view shows keys masked to their last 4 characters). */
function stateOf(view: AdminView, last4: string): AdminView['credentials'][number] {
  const found = view.credentials.find((credential) => credential.masked.endsWith(`...${last4}`));
  if (!found) throw new Error(`no credential ending in ${last4}`);
  return found;
}

const chat = (gw: RunningGateway, content = 'hi', extra: Record<string, unknown> = {}): Promise<Response> =>
  postJson(`${gw.url}/gemini/v1/chat/completions`, { model: 'gemini-2.5-flash', messages: [{ role: 'user', content }], ...extra });

describe('gemini plugin: API key rotation', () => {
  let gw: RunningGateway;
  beforeEach(async () => {
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }, { apiKey: KEY_B }] } });
  });
  afterEach(() => gw.close());

  it('spreads calls round-robin over the keys', async () => {
    const used = upstreamByKey({});
    for (let i = 0; i < 4; i += 1) expect((await chat(gw)).status).to.equal(200);
    expect(used).to.deep.equal([KEY_A, KEY_B, KEY_A, KEY_B]);
  });

  it('puts a rate-limited key in cooldown for RetryInfo.retryDelay and retries on the other key', async () => {
    const used = upstreamByKey({ [KEY_A]: () => [429, fixtureJson('gemini/error-429.json')] });
    const started = Date.now();
    const res = await chat(gw);
    expect(res.status).to.equal(200);
    expect(used).to.deep.equal([KEY_A, KEY_B]);
    const a = stateOf(await adminView(gw), '0001');
    expect(a.state).to.equal('cooling_down');
    const until = Date.parse(a.cooldownUntil ?? '');
    expect(until - started).to.be.within(36_000, 40_000);
    expect(a.lastError).to.match(/^You exceeded your current quota/);

    // While A rests, B serves everything.
    used.length = 0;
    await chat(gw);
    await chat(gw);
    expect(used).to.deep.equal([KEY_B, KEY_B]);
  });

  it('marks a key invalid on 400 API_KEY_INVALID, retries on the other, and never uses it again', async () => {
    const used = upstreamByKey({ [KEY_A]: () => [400, fixtureJson('gemini/error-400-api-key.json')] });
    expect((await chat(gw)).status).to.equal(200);
    await chat(gw);
    await chat(gw);
    expect(used).to.deep.equal([KEY_A, KEY_B, KEY_B, KEY_B]);
    const view = await adminView(gw);
    expect(stateOf(view, '0001')).to.deep.include({ state: 'invalid', lastError: 'API key not valid. Please pass a valid API key.' });
    expect(stateOf(view, '0002').state).to.equal('healthy');
    expect(JSON.stringify(view)).not.to.include(KEY_A);
  });

  it('marks a key invalid on 403 PERMISSION_DENIED', async () => {
    const used = upstreamByKey({ [KEY_A]: () => [403, { error: { code: 403, message: 'Your API key was reported as leaked. Please use another API key.', status: 'PERMISSION_DENIED' } }] });
    expect((await chat(gw)).status).to.equal(200);
    expect(used).to.deep.equal([KEY_A, KEY_B]);
    expect(stateOf(await adminView(gw), '0001').state).to.equal('invalid');
  });

  it('does not blame the key for a 403 about a resource the request named', async () => {
    upstreamByKey({ [KEY_A]: () => [403, { error: { code: 403, message: 'You do not have permission to access tuned model tunedModels/secret-1', status: 'PERMISSION_DENIED' } }] });
    const res = await chat(gw);
    expect(res.status).to.equal(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.include('tunedModels/secret-1');
    expect(stateOf(await adminView(gw), '0001').state).to.equal('healthy');
  });

  it('does not rotate on an upstream server error: the client gets it, with the upstream message', async () => {
    const used = upstreamByKey({ [KEY_A]: () => [500, { error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } }] });
    const res = await chat(gw);
    expect(res.status).to.equal(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.equal('An internal error has occurred.');
    expect(used).to.deep.equal([KEY_A]);
  });

  it('answers 429 with retry-after and the upstream message when every key is rate-limited', async () => {
    const limited = (): [number, unknown] => [429, fixtureJson('gemini/error-429.json')];
    upstreamByKey({ [KEY_A]: limited, [KEY_B]: limited });
    const res = await chat(gw);
    expect(res.status).to.equal(429);
    expect(Number(res.headers.get('retry-after'))).to.be.within(35, 38);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.type).to.equal('rate_limit_error');
    expect(body.error.message).to.match(/every API key of platform "gemini" is rate-limited/);
    expect(body.error.message).to.include('You exceeded your current quota');

    // A Gemini-native client gets its own shape; no upstream call is made while every key rests.
    const scope = nock(UPSTREAM).post(/.*/).reply(200, {});
    const native = await postJson(`${gw.url}/gemini${GENERATE}`, { contents: [{ parts: [{ text: 'hi' }] }] });
    expect(native.status).to.equal(429);
    expect(((await native.json()) as { error: { status: string } }).error.status).to.equal('RESOURCE_EXHAUSTED');
    expect(scope.isDone()).to.equal(false);
  });

  it('answers 503 when no key is usable', async () => {
    const invalid = (): [number, unknown] => [400, fixtureJson('gemini/error-400-api-key.json')];
    upstreamByKey({ [KEY_A]: invalid, [KEY_B]: invalid });
    const res = await chat(gw);
    expect(res.status).to.equal(503);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.match(/no healthy API key is left on platform "gemini"/);
  });

  it('retries a stream on another key while nothing has been streamed', async () => {
    upstreamByKey({
      [KEY_A]: () => [429, fixtureJson('gemini/error-429.json')],
      [KEY_B]: () => [200, replayChunks(fixtureBytes('gemini/stream-basic.sse'), 11), SSE_HEADERS],
    });
    const res = await chat(gw, 'hi', { stream: true });
    expect(res.status).to.equal(200);
    const text = sseData(await res.text())
      .filter((data) => data !== '[DONE]')
      .map((data) => (JSON.parse(data) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
      .join('');
    expect(text).to.equal('Hello, nice to meet you!');
  });

  it('lets an admin reset a key', async () => {
    upstreamByKey({ [KEY_A]: () => [400, fixtureJson('gemini/error-400-api-key.json')] });
    await chat(gw);
    const a = stateOf(await adminView(gw), '0001');
    const reset = await fetch(`${gw.url}/admin/credentials/gemini/tokens/${a.id}/reset`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
    expect(reset.status).to.equal(200);
    expect(stateOf(await adminView(gw), '0001').state).to.equal('healthy');
  });

  it('drops the deprecated civic-integrity category once the upstream refuses it, and resends', async () => {
    const bodies: Array<{ safetySettings: Array<{ category: string }> }> = [];
    nock(UPSTREAM)
      .post(GENERATE)
      .times(3)
      .reply((_uri, body) => {
        const sent = body as (typeof bodies)[number];
        bodies.push(sent);
        if (sent.safetySettings.some((setting) => setting.category === CIVIC_INTEGRITY)) {
          return [400, { error: { code: 400, message: `Invalid value at 'safety_settings[4].category' (type.googleapis.com/google.ai.generativelanguage.v1beta.HarmCategory), "${CIVIC_INTEGRITY}"`, status: 'INVALID_ARGUMENT' } }];
        }
        return [200, fixtureJson('gemini/response-basic.json')];
      });
    expect((await chat(gw)).status).to.equal(200);
    expect((await postJson(`${gw.url}/gemini${GENERATE}`, { contents: [{ parts: [{ text: 'hi' }] }] })).status).to.equal(200);
    expect(bodies.map((body) => body.safetySettings.length)).to.deep.equal([5, 4, 4]);
    // The key was not blamed for it.
    expect(stateOf(await adminView(gw), '0001').state).to.equal('healthy');
  });

  it('resends a chat client\'s penalties without them when the model refuses them; a Gemini client\'s own are its to fix', async () => {
    const configs: Array<Record<string, unknown>> = [];
    nock(UPSTREAM)
      .post(GENERATE)
      .times(4)
      .reply((_uri, body) => {
        const config = ((body as { generationConfig?: Record<string, unknown> }).generationConfig ?? {});
        configs.push(config);
        if (config.presencePenalty !== undefined || config.frequencyPenalty !== undefined) {
          return [400, { error: { code: 400, message: 'Penalty is not enabled for models/gemini-2.5-flash', status: 'INVALID_ARGUMENT' } }];
        }
        return [200, fixtureJson('gemini/response-basic.json')];
      });
    const translated = await chat(gw, 'hi', { presence_penalty: 0.5, frequency_penalty: 0.25, temperature: 0.2 });
    expect(translated.status).to.equal(200);
    expect(configs).to.deep.equal([{ temperature: 0.2, presencePenalty: 0.5, frequencyPenalty: 0.25 }, { temperature: 0.2 }]);
    // Remembered for the model: the next such request goes without them at once.
    expect((await chat(gw, 'again', { presence_penalty: 0.5 })).status).to.equal(200);
    expect(configs.slice(2)).to.deep.equal([{}]);
    const native = await postJson(`${gw.url}/gemini${GENERATE}`, { contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { presencePenalty: 1 } });
    expect(native.status).to.equal(400);
    expect(configs).to.have.length(4);
    expect(stateOf(await adminView(gw), '0001').state).to.equal('healthy');
    nock.cleanAll();
  });
});

describe('gemini plugin: the civic-integrity resend on the requests it builds for images and search', () => {
  let gw: RunningGateway;
  beforeEach(async () => {
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }] } });
  });
  afterEach(() => gw.close());

  for (const [name, path, body, answer] of [
    ['an image', '/gemini/v1/images/generations', { model: 'gemini-2.5-flash-image', prompt: 'x' }, 'gemini/response-image.json'],
    ['a search', '/gemini/v1/alpha/search', { id: 's', model: 'gemini-2.5-flash', commands: { search_query: [{ q: 'node' }] } }, 'gemini/response-basic.json'],
  ] as const) {
    it(`resends ${name} without the category the upstream refuses, and drops it for later calls`, async () => {
      const sent: number[] = [];
      nock(UPSTREAM)
        .post(/:generateContent$/)
        .times(3)
        .reply((_uri, request) => {
          const settings = (request as { safetySettings: Array<{ category: string }> }).safetySettings;
          sent.push(settings.length);
          if (settings.some((setting) => setting.category === CIVIC_INTEGRITY)) {
            return [400, { error: { code: 400, message: `Invalid value at 'safety_settings[4].category', "${CIVIC_INTEGRITY}"`, status: 'INVALID_ARGUMENT' } }];
          }
          return [200, fixtureJson(answer)];
        });
      expect((await postJson(`${gw.url}${path}`, body)).status).to.equal(200);
      expect((await postJson(`${gw.url}${path}`, body)).status).to.equal(200);
      expect(sent).to.deep.equal([5, 4, 4]);
    });
  }
});

describe('gemini plugin: key states survive a restart', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gemini-keys-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps an invalid key out of service after the gateway restarts on the same store', async () => {
    const platforms = { gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }, { apiKey: KEY_B }] } };
    const store = { store: { driver: 'sqlite' as const, path: path.join(dir, 'gateway.db') } };
    const first = await startGateway(platforms, store);
    upstreamByKey({ [KEY_A]: () => [400, fixtureJson('gemini/error-400-api-key.json')] });
    expect((await chat(first)).status).to.equal(200);
    await first.close();
    nock.cleanAll();

    const second = await startGateway(platforms, store);
    try {
      const used = upstreamByKey({});
      await chat(second);
      await chat(second);
      expect(used).to.deep.equal([KEY_B, KEY_B]);
      expect(stateOf(await adminView(second), '0001').state).to.equal('invalid');
    } finally {
      await second.close();
    }
  });
});
