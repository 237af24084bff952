import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import nock from 'nock';
import OpenAI from 'openai';
import { fixtureBytes, fixtureJson } from '../../../test/helpers/fixtures';
import { startGateway, TEST_ADMIN_KEY, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

const UPSTREAM = 'http://keys.upstream.test';
const BAD = 'sk-proj-bad-00000000000000001';
const GOOD = 'sk-proj-good-0000000000000002';
const COMPLETION = fixtureBytes('openai-chat/response-basic.json');

type View = { credentials: Array<{ id: string; masked: string; state: string; cooldownUntil?: string; lastError?: string }> };

/**
 * Several API keys on one OpenAI-compatible upstream, one of them failing: each key's health is kept like the claude
 * and gemini keys', so the failing key rests (or leaves service) and every request is answered by the healthy one.
 */
describe('openai plugin: API key health', () => {
  let dir: string;
  const gateways: RunningGateway[] = [];
  const start = async (): Promise<RunningGateway> => {
    const gw = await startGateway(
      { openai: { plugin: 'openai', baseUrl: UPSTREAM, credentials: [{ apiKey: BAD }, { apiKey: GOOD }] } },
      { store: { driver: 'sqlite', path: path.join(dir, 'gateway.db') } },
    );
    gateways.push(gw);
    return gw;
  };
  const view = async (gw: RunningGateway): Promise<View> => (await (await fetch(`${gw.url}/admin/credentials/openai`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } })).json()) as View;
  /** The upstream: `bad` answers for the bad key, the completion for the good one; the keys used, in order. */
  const upstream = (bad: [number, unknown, Record<string, string>?], seen: string[]) =>
    nock(UPSTREAM)
      .post('/v1/chat/completions')
      .times(20)
      .reply(function () {
        const key = String(this.req.headers.authorization).replace('Bearer ', '');
        seen.push(key === BAD ? 'bad' : 'good');
        return key === BAD ? [bad[0], JSON.stringify(bad[1]), { 'content-type': 'application/json', ...bad[2] }] : [200, COMPLETION, { 'content-type': 'application/json' }];
      });

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gw-openai-keys-'));
  });
  afterEach(async () => {
    for (const gw of gateways.splice(0)) await gw.close();
    nock.cleanAll();
  });

  for (const [what, bad, state] of [
    ['rate-limited (429, x-ratelimit-reset-requests 30s)', [429, { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, { 'x-ratelimit-reset-requests': '30s' }], 'cooling_down'],
    ['out of quota (429 insufficient_quota)', [429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }], 'limit_marked'],
    ['suspended (401 account_deactivated)', [401, { error: { message: 'Your account has been suspended', type: 'invalid_request_error', param: null, code: 'account_deactivated' } }], 'invalid'],
  ] as const) {
    it(`a key that is ${what} is tried once, marked ${state}, and every request is answered by the other (OpenAI SDK)`, async () => {
      const gw = await start();
      const seen: string[] = [];
      upstream([bad[0], bad[1], 'length' in bad && bad[2] ? bad[2] : undefined], seen);
      const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
      for (let i = 0; i < 4; i += 1) {
        const answer = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hi' }] });
        expect(answer.object).to.equal('chat.completion');
      }
      expect(seen).to.deep.equal(['bad', 'good', 'good', 'good', 'good']);
      const marked = (await view(gw)).credentials.find((credential) => credential.masked.endsWith('0001'));
      expect(marked).to.include({ state });
      if (state === 'cooling_down') expect(Date.parse(marked!.cooldownUntil!) - Date.now()).to.be.within(20_000, 31_000);
      // The mark is in the store: a restart keeps skipping the key.
      await gw.close();
      gateways.splice(gateways.indexOf(gw), 1);
      const again = await start();
      expect((await view(again)).credentials.find((credential) => credential.masked.endsWith('0001'))).to.include({ state });
    });
  }

  it('with every key refused, answers 503 in the OpenAI shape quoting the upstream (not a 401 that blames the client)', async () => {
    const gw = await start();
    const refused = { error: { message: `Incorrect API key provided: ${BAD}`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
    nock(UPSTREAM).post('/v1/chat/completions').times(2).reply(401, refused);
    const res = await fetch(`${gw.url}/openai/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(res.status).to.equal(503);
    const text = await res.text();
    expect(JSON.parse(text)).to.have.nested.property('error.message').that.includes('no healthy API key is left on platform "openai"');
    expect(text).to.not.include(BAD);
    expect((await view(gw)).credentials.map((credential) => credential.state)).to.deep.equal(['invalid', 'invalid']);
  });

  it('with every key out of quota, answers 429 keeping OpenAI\'s insufficient_quota type and code (the SDK\'s error.code)', async () => {
    const gw = await start();
    const quota = { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } };
    nock(UPSTREAM).post('/v1/chat/completions').times(2).reply(429, quota);
    const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
    const error = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.RateLimitError);
    expect([(error as InstanceType<typeof OpenAI.RateLimitError>).code, (error as InstanceType<typeof OpenAI.RateLimitError>).type]).to.deep.equal(['insufficient_quota', 'insufficient_quota']);
    expect((error as Error).message).to.include('every API key of platform "openai" is rate-limited');
  });

  it('videos: create goes to the healthy key, and a later retrieve with that key, refused, is a 503 that marks it', async () => {
    const gw = await start();
    const video = fixtureJson<Record<string, unknown>>('openai-videos/video-object-queued.json');
    const suspended = { error: { message: 'Your account has been suspended', type: 'invalid_request_error', param: null, code: 'account_deactivated' } };
    const seen: string[] = [];
    nock(UPSTREAM)
      .post('/v1/videos')
      .times(2)
      .reply(function () {
        const bad = String(this.req.headers.authorization).includes(BAD);
        seen.push(bad ? 'bad' : 'good');
        return bad ? [401, suspended] : [200, video];
      });
    const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
    const created = await client.videos.create({ model: 'sora-2', prompt: 'a calico cat' });
    expect(created.id).to.equal(video.id);
    expect(seen).to.deep.equal(['bad', 'good']);
    // The video belongs to the good key's project: its retrieve goes with that key, which is now refused.
    nock(UPSTREAM).get(`/v1/videos/${String(video.id)}`).matchHeader('authorization', `Bearer ${GOOD}`).reply(401, suspended);
    const retrieved = await fetch(`${gw.url}/openai/v1/videos/${String(video.id)}`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
    expect(retrieved.status).to.equal(503);
    expect(await retrieved.text()).to.include('Your account has been suspended');
    expect((await view(gw)).credentials.map((credential) => credential.state)).to.deep.equal(['invalid', 'invalid']);
  });
});
