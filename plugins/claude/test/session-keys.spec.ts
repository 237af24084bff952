import { expect } from 'chai';
import nock from 'nock';
import { fixtureBytes } from '../../../test/helpers/fixtures';
import { startGateway, TEST_ADMIN_KEY, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream';

const CLAUDE_AI = 'https://claude.test';
const TOKEN_HOST = 'https://platform.test';
const SESSION_KEY = 'sk-ant-sid01-good-session-0000000000000001';
const BAD_SESSION_KEY = 'sk-ant-sid01-invalid-session-000000000009';
const API_KEY = 'sk-ant-api03-fallback-key-00000000000000ab';
const ORG = '0b1d2c3e-0000-4000-8000-00000000c1a0';

const basic = fixtureBytes('anthropic-messages/response-basic.json');
const unauthorized = JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'OAuth token has expired.' } });

/** Replays steps 1-3 of the exchange once; `expiresIn` seconds of token life. */
function replayExchange(accessToken: string, expiresIn = 28800): { done(): boolean } {
  const orgs = nock(CLAUDE_AI).get('/api/organizations').matchHeader('cookie', `sessionKey=${SESSION_KEY}`).reply(200, [{ uuid: ORG, capabilities: ['chat', 'claude_pro'] }]);
  let state = '';
  const authorize = nock(CLAUDE_AI)
    .post(`/v1/oauth/${ORG}/authorize`, (body: { state: string; code_challenge_method: string }) => {
      state = body.state;
      return body.code_challenge_method === 'S256';
    })
    .reply(200, () => ({ redirect_uri: `https://platform.claude.com/oauth/code/callback?code=code-1&state=${state}` }));
  const token = nock(TOKEN_HOST)
    .post('/v1/oauth/token', (body: { grant_type: string; code: string }) => body.grant_type === 'authorization_code' && body.code === 'code-1')
    .reply(200, { access_token: accessToken, refresh_token: 'refresh-1', expires_in: expiresIn });
  return { done: () => orgs.isDone() && authorize.isDone() && token.isDone() };
}

/** Counts refresh grants; each answers the next access token in `tokens`. */
function replayRefreshes(tokens: string[], expiresIn = 28800): { count: () => number } {
  let count = 0;
  nock(TOKEN_HOST)
    .post('/v1/oauth/token', (body: { grant_type: string }) => body.grant_type === 'refresh_token')
    .times(tokens.length)
    .reply(200, () => {
      count += 1;
      return { access_token: tokens[count - 1], refresh_token: `refresh-${count + 1}`, expires_in: expiresIn };
    });
  return { count: () => count };
}

function platform(upstream: FakeUpstream, credentials: Array<Record<string, string>>) {
  return {
    claude: { plugin: 'claude', baseUrl: upstream.url, credentials, claudeAiUrl: CLAUDE_AI, oauthTokenUrl: `${TOKEN_HOST}/v1/oauth/token` },
  };
}

function chat(gw: RunningGateway): Promise<Response> {
  return fetch(`${gw.url}/claude/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] }),
  });
}

async function adminView(gw: RunningGateway): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${gw.url}/admin/credentials/claude`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
  return ((await res.json()) as { credentials: Array<Record<string, unknown>> }).credentials;
}

describe('claude plugin: session keys (nock replays of the OAuth exchange)', () => {
  let upstream: FakeUpstream;
  let gw: RunningGateway | undefined;
  beforeEach(async () => {
    upstream = await startFakeUpstream();
  });
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
    await upstream.close();
  });

  it('exchanges the session key once and calls with Bearer + the oauth beta added to the client’s list', async () => {
    const exchange = replayExchange('sk-ant-oat01-token-one');
    upstream.fallback({ status: 200, body: basic });
    gw = await startGateway(platform(upstream, [{ sessionKey: SESSION_KEY }]));

    const passthrough = await fetch(`${gw.url}/claude/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_LICENSE, 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'fine-grained-tool-streaming-2025-05-14, files-api-2025-04-14' },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(passthrough.status).to.equal(200);
    expect((await chat(gw)).status).to.equal(200);

    expect(exchange.done()).to.equal(true);
    const [native, translated] = upstream.seen;
    expect(native.headers.authorization).to.equal('Bearer sk-ant-oat01-token-one');
    expect(native.headers['x-api-key']).to.equal(undefined);
    expect(native.headers['anthropic-beta']).to.equal('fine-grained-tool-streaming-2025-05-14,files-api-2025-04-14,oauth-2025-04-20');
    expect(translated.headers.authorization).to.equal('Bearer sk-ant-oat01-token-one');
    expect(translated.headers['anthropic-beta']).to.equal('oauth-2025-04-20');
    expect(translated.headers['anthropic-version']).to.equal('2023-06-01');

    const [view] = await adminView(gw);
    expect(view).to.deep.include({ kind: 'sessionKey', state: 'healthy', masked: '...0001' });
    expect(Date.parse(String(view.expiresAt)) - Date.now()).to.be.within(28_700_000, 28_800_000);
  });

  it('refreshes once on a 401 and retries the same request with the new token', async () => {
    replayExchange('token-old');
    const refreshes = replayRefreshes(['token-new']);
    upstream.queue({ status: 401, body: unauthorized });
    upstream.fallback({ status: 200, body: basic });
    gw = await startGateway(platform(upstream, [{ sessionKey: SESSION_KEY }]));

    const res = await chat(gw);
    expect(res.status).to.equal(200);
    expect(refreshes.count()).to.equal(1);
    expect(upstream.seen.map((s) => s.headers.authorization)).to.deep.equal(['Bearer token-old', 'Bearer token-new']);
    expect((await adminView(gw))[0].state).to.equal('healthy');
  });

  it('runs a single refresh when two concurrent requests are both refused with the same token', async () => {
    replayExchange('token-old');
    const refreshes = replayRefreshes(['token-new', 'token-unexpected']);
    gw = await startGateway(platform(upstream, [{ sessionKey: SESSION_KEY }]));
    upstream.fallback({ status: 200, body: basic });
    expect((await chat(gw)).status).to.equal(200);
    upstream.reset();

    let refusals = 0;
    upstream.fallback(async (request) => {
      if (request.headers.authorization === 'Bearer token-old') {
        refusals += 1;
        // Hold the first refusal until the second request has arrived, so both see the old token.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { status: 401, body: unauthorized };
      }
      return { status: 200, body: basic };
    });
    const answers = await Promise.all([chat(gw), chat(gw)]);
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200]);
    expect(refusals).to.equal(2);
    expect(refreshes.count()).to.equal(1);
  });

  it('refreshes early in the background, once for concurrent requests, which go on with the still-valid token', async () => {
    replayExchange('token-short', 1);
    const refreshes = replayRefreshes(['token-renewed', 'token-unexpected']);
    upstream.fallback({ status: 200, body: basic });
    gw = await startGateway(platform(upstream, [{ sessionKey: SESSION_KEY }]));
    await chat(gw);
    const shortExpiry = (await adminView(gw))[0].expiresAt;
    // Half of a 1 s life is the refresh margin.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await Promise.all([chat(gw), chat(gw), chat(gw)]);
    for (let i = 0; i < 100 && (await adminView(gw))[0].expiresAt === shortExpiry; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await chat(gw);
    expect(refreshes.count()).to.equal(1);
    expect(upstream.seen.slice(1).map((s) => s.headers.authorization)).to.deep.equal(['Bearer token-short', 'Bearer token-short', 'Bearer token-short', 'Bearer token-renewed']);
  });

  it('marks the credential invalid when the token is still refused after a refresh', async () => {
    replayExchange('token-old');
    replayRefreshes(['token-new']);
    upstream.fallback({ status: 401, body: unauthorized });
    gw = await startGateway(platform(upstream, [{ sessionKey: SESSION_KEY }]));
    const res = await chat(gw);
    expect(res.status).to.equal(503);
    expect(upstream.seen).to.have.length(2);
    expect((await adminView(gw))[0]).to.deep.include({ state: 'invalid', lastError: 'OAuth token has expired.' });
  });

  it('marks an invalid session key invalid with a clear reason, while the other credentials keep serving', async () => {
    const orgs = nock(CLAUDE_AI).get('/api/organizations').matchHeader('cookie', `sessionKey=${BAD_SESSION_KEY}`).once().reply(403, { type: 'error', error: { type: 'permission_error', message: 'Invalid authorization' } });
    upstream.fallback({ status: 200, body: basic });
    gw = await startGateway(platform(upstream, [{ sessionKey: BAD_SESSION_KEY }, { apiKey: API_KEY }]));

    for (let i = 0; i < 3; i += 1) expect((await chat(gw)).status).to.equal(200);
    expect(orgs.isDone()).to.equal(true);
    expect(upstream.seen.map((s) => s.headers['x-api-key'])).to.deep.equal([API_KEY, API_KEY, API_KEY]);
    const [session, key] = await adminView(gw);
    expect(session).to.deep.include({ kind: 'sessionKey', state: 'invalid' });
    expect(String(session.lastError)).to.match(/claude\.ai rejected the session key \(HTTP 403 .*Invalid authorization\)/);
    expect(String(session.lastError)).not.to.include(BAD_SESSION_KEY);
    expect(key).to.deep.include({ kind: 'apiKey', state: 'healthy' });
  });

  it('answers an OAuth token endpoint outage as a 502 (not a rate limit); requests while the key waits get a 429 with retry-after', async () => {
    nock(CLAUDE_AI).get('/api/organizations').reply(200, [{ uuid: ORG, capabilities: ['chat'] }]);
    nock(CLAUDE_AI).post(`/v1/oauth/${ORG}/authorize`).reply(200, (_uri, body) => ({ redirect_uri: `https://platform.claude.com/oauth/code/callback?code=code-1&state=${(body as { state: string }).state}` }));
    nock(TOKEN_HOST).post('/v1/oauth/token').reply(500, 'upstream connect error');
    gw = await startGateway(platform(upstream, [{ sessionKey: SESSION_KEY }]));
    const res = await chat(gw);
    expect(res.status).to.equal(502);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.message).to.match(/token endpoint/i);
    expect(body.error.message).not.to.match(/rate-limited/);
    expect(upstream.seen).to.have.length(0);
    expect((await adminView(gw))[0]).to.include({ state: 'cooling_down' });

    const waiting = await chat(gw);
    expect(waiting.status).to.equal(429);
    expect(Number(waiting.headers.get('retry-after'))).to.be.within(1, 30);
  });

  it('answers 503 in the client’s shape when the only credential is an invalid session key', async () => {
    nock(CLAUDE_AI).get('/api/organizations').reply(403, '<!DOCTYPE html><title>Just a moment...</title>', { 'content-type': 'text/html' });
    gw = await startGateway(platform(upstream, [{ sessionKey: BAD_SESSION_KEY }]));
    const res = await chat(gw);
    expect(res.status).to.equal(503);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).to.include('no healthy credential');
    expect(upstream.seen).to.have.length(0);
    expect(String((await adminView(gw))[0].lastError)).to.include('challenge page');
  });

  it('an admin reset of an invalid session key redoes the exchange on the next call', async () => {
    nock(CLAUDE_AI).get('/api/organizations').reply(403, { error: { message: 'Invalid authorization' } });
    gw = await startGateway(platform(upstream, [{ sessionKey: SESSION_KEY }]));
    expect((await chat(gw)).status).to.equal(503);
    const [view] = await adminView(gw);
    const reset = await fetch(`${gw.url}/admin/credentials/claude/tokens/${String(view.id)}/reset`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
    expect(reset.status).to.equal(200);
    const exchange = replayExchange('token-after-reset');
    upstream.fallback({ status: 200, body: basic });
    expect((await chat(gw)).status).to.equal(200);
    expect(exchange.done()).to.equal(true);
    expect(upstream.seen[0].headers.authorization).to.equal('Bearer token-after-reset');
  });
});
