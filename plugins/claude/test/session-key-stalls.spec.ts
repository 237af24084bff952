import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mock } from 'node:test';
import { expect } from 'chai';
import { fixtureBytes } from '../../../test/helpers/fixtures';
import { startGateway, TEST_ADMIN_KEY, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from './helpers/fake-upstream';

const SESSION_KEY = 'sk-ant-sid01-stalled-session-0000000000000001';
const API_KEY = 'sk-ant-api03-fallback-key-00000000000000cd';
const ORG = '0b1d2c3e-0000-4000-8000-00000000c1a1';

const basic = fixtureBytes('anthropic-messages/response-basic.json');
/** Accepts the request and never answers: a stalled claude.ai or token endpoint. */
const stall = (): Promise<FakeReply> => new Promise<FakeReply>(() => undefined);

/** claude.ai and the token endpoint on one loopback server, each step answering as `steps` says. */
function claudeAi(server: FakeUpstream, steps: { organizations?: 'stall'; refresh?: 'stall' }, expiresIn: number): void {
  let state = '';
  let issued = 0;
  server.fallback(async (request) => {
    if (request.url === '/api/organizations') {
      if (steps.organizations === 'stall') return stall();
      return { status: 200, body: JSON.stringify([{ uuid: ORG, capabilities: ['chat'] }]) };
    }
    if (request.url.endsWith('/authorize')) {
      state = (request.json as { state: string }).state;
      return { status: 200, body: JSON.stringify({ redirect_uri: `https://platform.claude.com/oauth/code/callback?code=code-1&state=${state}` }) };
    }
    const grant = (request.json as { grant_type: string }).grant_type;
    if (grant === 'refresh_token' && steps.refresh === 'stall') return stall();
    issued += 1;
    return { status: 200, body: JSON.stringify({ access_token: `token-${issued}`, refresh_token: `refresh-${issued}`, expires_in: expiresIn }) };
  });
}

function platform(upstream: FakeUpstream, oauth: FakeUpstream, credentials: Array<Record<string, string>>) {
  return { claude: { plugin: 'claude', baseUrl: upstream.url, credentials, claudeAiUrl: oauth.url, oauthTokenUrl: `${oauth.url}/v1/oauth/token` } };
}

function chat(gw: RunningGateway, signal?: AbortSignal): Promise<Response> {
  return fetch(`${gw.url}/claude/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] }),
    signal,
  });
}

async function adminView(gw: RunningGateway): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${gw.url}/admin/credentials/claude`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
  return ((await res.json()) as { credentials: Array<Record<string, unknown>> }).credentials;
}

/** Polls without timers (they may be mocked): a turn of the event loop per try. */
async function until(condition: () => boolean | Promise<boolean>, tries = 5000): Promise<void> {
  for (let i = 0; i < tries && !(await condition()); i += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(await condition(), 'condition never became true').to.equal(true);
}

/** Counts the answers the gateway has seen closed (finished, or the client gone). */
function countClosedAnswers(gw: RunningGateway): () => number {
  let closed = 0;
  gw.gateway.server.on('request', (_req, res: ServerResponse) => res.once('close', () => (closed += 1)));
  return () => closed;
}

/** Whether the promise settles within a few turns of the event loop. */
async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 200 && !settled; i += 1) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe('claude plugin: a stalled claude.ai or token endpoint (loopback fakes)', () => {
  let upstream: FakeUpstream;
  let oauth: FakeUpstream;
  let gw: RunningGateway | undefined;
  beforeEach(async () => {
    upstream = await startFakeUpstream();
    oauth = await startFakeUpstream();
    upstream.fallback({ status: 200, body: basic });
  });
  afterEach(async () => {
    mock.timers.reset();
    await gw?.close();
    gw = undefined;
    await oauth.close();
    await upstream.close();
  });

  it('fails over to the API key once the exchange outlasts its own 15 s timeout, not the platform’s 600 s', async () => {
    claudeAi(oauth, { organizations: 'stall' }, 28800);
    gw = await startGateway(platform(upstream, oauth, [{ sessionKey: SESSION_KEY }, { apiKey: API_KEY }]));
    // Only the timers: sockets stay real. The stalled call's total timeout is the one timer that matters here.
    mock.timers.enable({ apis: ['setTimeout'] });

    const answer = chat(gw);
    await until(() => oauth.seen.length === 1);
    mock.timers.tick(14_900);
    expect(await settlesSoon(answer), 'answered before the OAuth timeout').to.equal(false);
    mock.timers.tick(100);
    const res = await answer;
    mock.timers.reset();

    expect(res.status).to.equal(200);
    expect(upstream.seen.map((s) => s.headers['x-api-key'])).to.deep.equal([API_KEY]);
    const [session, key] = await adminView(gw);
    // A stall is likely transient: a cooldown, not invalid.
    expect(session).to.deep.include({ kind: 'sessionKey', state: 'cooling_down' });
    expect(String(session.lastError)).to.match(/claude\.ai \/api\/organizations: upstream total timeout after 15000ms/);
    expect(key).to.deep.include({ kind: 'apiKey', state: 'healthy' });
  });

  it('serves a request at once with the still-valid token while its early refresh stalls', async () => {
    // A 2 s token: the refresh margin is its second half.
    claudeAi(oauth, {}, 2);
    gw = await startGateway(platform(upstream, oauth, [{ sessionKey: SESSION_KEY }]));
    expect((await chat(gw)).status).to.equal(200);
    claudeAi(oauth, { refresh: 'stall' }, 2);
    await new Promise((resolve) => setTimeout(resolve, 1100));

    const answers = await Promise.all([chat(gw, AbortSignal.timeout(800)), chat(gw, AbortSignal.timeout(800))]);

    expect(answers.map((a) => a.status)).to.deep.equal([200, 200]);
    expect(upstream.seen.map((s) => s.headers.authorization)).to.deep.equal(['Bearer token-1', 'Bearer token-1', 'Bearer token-1']);
    // One refresh, started in the background and shared.
    expect(oauth.seen.filter((s) => (s.json as { grant_type?: string } | undefined)?.grant_type === 'refresh_token')).to.have.length(1);
    expect((await adminView(gw))[0].state).to.equal('healthy');
  });

  it('a shutdown that cuts the exchange answers 503 and leaves the credential healthy, also after the restart', async () => {
    claudeAi(oauth, { organizations: 'stall' }, 28800);
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-claude-shutdown-'));
    const store = { driver: 'sqlite' as const, path: path.join(dir, 'gw.db') };
    try {
      const first = await startGateway(platform(upstream, oauth, [{ sessionKey: SESSION_KEY }]), { store });
      const answer = chat(first);
      await until(() => oauth.seen.length === 1);
      await first.gateway.close(50);
      const res = await answer;
      expect(res.status).to.equal(503);
      expect(((await res.json()) as { error: { message: string } }).error.message).to.match(/shutting down/);

      claudeAi(oauth, {}, 28800);
      gw = await startGateway(platform(upstream, oauth, [{ sessionKey: SESSION_KEY }]), { store });
      expect((await adminView(gw))[0]).to.deep.include({ kind: 'sessionKey', state: 'healthy' });
      expect((await chat(gw)).status).to.equal(200);
    } finally {
      await gw?.close();
      gw = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends a request whose client left while it waited for the exchange, leaving the credential untouched', async () => {
    claudeAi(oauth, { organizations: 'stall' }, 28800);
    gw = await startGateway(platform(upstream, oauth, [{ sessionKey: SESSION_KEY }, { apiKey: API_KEY }]));
    const closedAnswers = countClosedAnswers(gw);
    mock.timers.enable({ apis: ['setTimeout'] });
    const client = new AbortController();
    const gone = chat(gw, client.signal).catch(() => undefined);
    await until(() => oauth.seen.length === 1);
    client.abort();
    await gone;
    // The gateway has seen the client go (its socket closed).
    await until(() => closedAnswers() === 1);

    // The exchange fails later (at the latest when a generation call would have: 600 s); the request that left must
    // not be waiting any more to turn that into a verdict on the credential.
    mock.timers.tick(600_000);
    mock.timers.reset();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [session] = await adminView(gw);
    expect(session).to.deep.include({ kind: 'sessionKey', state: 'healthy', requests: 1 });
  });
});
