import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { mock } from 'node:test';
import { expect } from 'chai';
import nock from 'nock';
import { GatewayError, isGatewayError, type UpstreamClient } from '@gateway/core';
import { createUpstreamClient } from '../../../../core/upstream/upstream-client';
import { createClaudeOAuthClient } from '../../src/oauth/create-claude-oauth-client';
import { isCredentialRejection } from '../../src/oauth/oauth-errors';
import { CLAUDE_DEFAULTS, resolveClaudeOptions } from '../../src/options';
import { rejection } from '../../../../test/helpers/rejection';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../helpers/fake-upstream';

const CLAUDE_AI = 'https://claude.test';
const TOKEN_HOST = 'https://platform.test';
const SESSION_KEY = 'sk-ant-sid01-session-secret-0000000000000001';
const ORG = 'c0ffee00-1111-2222-3333-444455556666';
const NOW = Date.parse('2026-01-01T00:00:00Z');

const options = resolveClaudeOptions({ credentials: [], claudeAiUrl: CLAUDE_AI, oauthTokenUrl: `${TOKEN_HOST}/v1/oauth/token` });
const timeouts = { connectMs: 2000, totalMs: 5000, idleMs: 5000 };

describe('claude OAuth client (nock replays)', () => {
  const http = createUpstreamClient();
  after(() => http.close());
  const client = createClaudeOAuthClient({ http, timeouts, options, now: () => NOW });

  it('exchanges a session key in three steps: organisations, authorize with PKCE S256, authorization_code grant', async () => {
    let challenge = '';
    let state = '';
    const orgs = nock(CLAUDE_AI)
      .get('/api/organizations')
      .matchHeader('cookie', `sessionKey=${SESSION_KEY}`)
      .reply(200, [
        { uuid: 'api-only-org', capabilities: ['api'] },
        { uuid: 'small-chat-org', capabilities: ['chat'] },
        { uuid: ORG, capabilities: ['chat', 'claude_max', 'raven'] },
      ]);
    const authorize = nock(CLAUDE_AI)
      .post(`/v1/oauth/${ORG}/authorize`, (body: Record<string, string>) => {
        challenge = body.code_challenge;
        state = body.state;
        return (
          body.response_type === 'code' &&
          body.client_id === CLAUDE_DEFAULTS.oauthClientId &&
          body.organization_uuid === ORG &&
          body.redirect_uri === CLAUDE_DEFAULTS.oauthRedirectUri &&
          body.scope === 'user:profile user:inference' &&
          body.code_challenge_method === 'S256' &&
          /^[A-Za-z0-9_-]{43}$/.test(body.code_challenge) &&
          state.length >= 32
        );
      })
      .matchHeader('cookie', `sessionKey=${SESSION_KEY}`)
      .reply(200, () => ({ redirect_uri: `${CLAUDE_DEFAULTS.oauthRedirectUri}?code=the-code-123&state=${state}` }));
    const token = nock(TOKEN_HOST)
      .post('/v1/oauth/token', (body: Record<string, string>) =>
        body.grant_type === 'authorization_code' &&
        body.code === 'the-code-123' &&
        body.client_id === CLAUDE_DEFAULTS.oauthClientId &&
        body.redirect_uri === CLAUDE_DEFAULTS.oauthRedirectUri &&
        body.state === state &&
        createHash('sha256').update(body.code_verifier).digest('base64url') === challenge,
      )
      .reply(200, { token_type: 'Bearer', access_token: 'sk-ant-oat01-access-1', refresh_token: 'sk-ant-ort01-refresh-1', expires_in: 28800, organization: { uuid: ORG } });

    const tokens = await client.exchangeSessionKey(SESSION_KEY);

    expect(tokens).to.deep.equal({
      accessToken: 'sk-ant-oat01-access-1',
      refreshToken: 'sk-ant-ort01-refresh-1',
      expiresAt: NOW + 28800 * 1000,
      obtainedAt: NOW,
      organizationUuid: ORG,
    });
    expect(orgs.isDone() && authorize.isDone() && token.isDone()).to.equal(true);
  });

  it('refreshes with the refresh_token grant, keeping the refresh token when none is returned', async () => {
    nock(TOKEN_HOST)
      .post('/v1/oauth/token', { grant_type: 'refresh_token', refresh_token: 'sk-ant-ort01-refresh-1', client_id: CLAUDE_DEFAULTS.oauthClientId })
      .reply(200, { access_token: 'sk-ant-oat01-access-2', expires_in: 3600 });
    const tokens = await client.refresh({ accessToken: 'old', refreshToken: 'sk-ant-ort01-refresh-1', expiresAt: NOW, obtainedAt: NOW - 1000, organizationUuid: ORG });
    expect(tokens).to.deep.equal({ accessToken: 'sk-ant-oat01-access-2', refreshToken: 'sk-ant-ort01-refresh-1', expiresAt: NOW + 3_600_000, obtainedAt: NOW, organizationUuid: ORG });
  });

  const refusals: Array<{ name: string; reply: () => nock.Scope; reason: RegExp }> = [
    {
      name: 'a 403 from /api/organizations',
      reply: () => nock(CLAUDE_AI).get('/api/organizations').reply(403, { type: 'error', error: { type: 'permission_error', message: 'Invalid authorization' } }),
      reason: /rejected the session key \(HTTP 403 from \/api\/organizations: Invalid authorization\)/,
    },
    {
      name: 'a 401 from /api/organizations',
      reply: () => nock(CLAUDE_AI).get('/api/organizations').reply(401, { error: { message: 'Unauthorized' } }),
      reason: /HTTP 401/,
    },
    {
      name: 'a challenge page',
      reply: () => nock(CLAUDE_AI).get('/api/organizations').reply(403, '<!DOCTYPE html><title>Just a moment...</title>', { 'content-type': 'text/html' }),
      reason: /challenge page/,
    },
    {
      name: 'a challenge page answered with 200',
      reply: () => nock(CLAUDE_AI).get('/api/organizations').reply(200, '<html>Just a moment</html>', { 'content-type': 'text/html' }),
      reason: /challenge page/,
    },
    {
      name: 'an account without a chat organisation',
      reply: () => nock(CLAUDE_AI).get('/api/organizations').reply(200, [{ uuid: 'api-only', capabilities: ['api'] }]),
      reason: /no claude\.ai organisation with chat capability/,
    },
  ];
  for (const { name, reply, reason } of refusals) {
    it(`treats ${name} as an invalid session key, with a clear reason and the key masked`, async () => {
      const scope = reply();
      const error = await rejection(client.exchangeSessionKey(SESSION_KEY));
      expect(isCredentialRejection(error)).to.equal(true);
      expect((error as Error).message).to.match(reason);
      expect((error as Error).message).not.to.include(SESSION_KEY);
      expect(scope.isDone()).to.equal(true);
    });
  }

  it('treats a refused refresh grant as a rejection and a 5xx as transient', async () => {
    nock(TOKEN_HOST).post('/v1/oauth/token').reply(400, { error: 'invalid_grant', error_description: 'Refresh token not found or invalid' });
    const refused = await rejection(client.refresh({ accessToken: 'a', refreshToken: 'r', expiresAt: NOW, obtainedAt: NOW }));
    expect(isCredentialRejection(refused)).to.equal(true);
    expect((refused as Error).message).to.include('invalid_grant: Refresh token not found or invalid');

    nock(TOKEN_HOST).post('/v1/oauth/token').reply(503, 'upstream connect error');
    const transient = await rejection(client.refresh({ accessToken: 'a', refreshToken: 'r', expiresAt: NOW, obtainedAt: NOW }));
    expect(isGatewayError(transient)).to.equal(true);
    expect(isCredentialRejection(transient)).to.equal(false);
  });

  it('treats an unreachable claude.ai as transient, not as a bad key', async () => {
    nock(CLAUDE_AI).get('/api/organizations').replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const error = await rejection(client.exchangeSessionKey(SESSION_KEY));
    expect(isGatewayError(error)).to.equal(true);
    expect(isCredentialRejection(error)).to.equal(false);
  });

  it('refuses an authorize answer whose state is not the one sent', async () => {
    nock(CLAUDE_AI).get('/api/organizations').reply(200, [{ uuid: ORG, capabilities: ['chat'] }]);
    nock(CLAUDE_AI).post(`/v1/oauth/${ORG}/authorize`).reply(200, { redirect_uri: 'https://platform.test/cb?code=c&state=forged' });
    const error = await rejection(client.exchangeSessionKey(SESSION_KEY));
    expect((error as Error).message).to.include('another OAuth state');
  });
});

describe('claude OAuth client: a stalled claude.ai or token endpoint (loopback, mocked timers)', () => {
  /** What a generation call may take on this platform: the OAuth calls must not inherit it. */
  const platformTimeouts = { connectMs: 10_000, totalMs: 600_000, idleMs: 120_000 };
  const http = createUpstreamClient();
  let server: FakeUpstream;
  beforeEach(async () => {
    server = await startFakeUpstream();
  });
  afterEach(async () => {
    mock.timers.reset();
    await server.close();
  });
  after(() => http.close());

  function stalledClient(stallOn: (url: string) => boolean) {
    server.fallback((request) =>
      stallOn(request.url)
        ? new Promise<FakeReply>(() => undefined)
        : { status: 200, body: JSON.stringify([{ uuid: ORG, capabilities: ['chat'] }]) },
    );
    const local = resolveClaudeOptions({ credentials: [], claudeAiUrl: server.url, oauthTokenUrl: `${server.url}/v1/oauth/token` });
    return createClaudeOAuthClient({ http, timeouts: platformTimeouts, options: local, now: () => NOW });
  }

  async function failsAt(call: Promise<unknown>, ms: number): Promise<unknown> {
    const outcome = rejection(call);
    // The stalled call has reached the server: its timers are running.
    await until(() => server.seen.length === 1);
    mock.timers.tick(ms - 100);
    expect(await settlesSoon(outcome), `settled before ${ms} ms`).to.equal(false);
    mock.timers.tick(100);
    return outcome;
  }

  it('gives up on a stalled /api/organizations after 15 s, as a transient failure naming the step', async () => {
    const client = stalledClient((url) => url === '/api/organizations');
    mock.timers.enable({ apis: ['setTimeout'] });
    const error = await failsAt(client.exchangeSessionKey(SESSION_KEY), 15_000);
    expect(isGatewayError(error) && error.code).to.equal('GW_UPSTREAM_TIMEOUT');
    expect(isCredentialRejection(error)).to.equal(false);
    expect((error as Error).message).to.match(/^claude\.ai \/api\/organizations: upstream total timeout after 15000ms/);
  });

  it('gives up on a stalled refresh grant after 15 s', async () => {
    const client = stalledClient((url) => url === '/v1/oauth/token');
    mock.timers.enable({ apis: ['setTimeout'] });
    const error = await failsAt(client.refresh({ accessToken: 'a', refreshToken: 'r', expiresAt: NOW, obtainedAt: NOW }), 15_000);
    expect(isGatewayError(error) && error.code).to.equal('GW_UPSTREAM_TIMEOUT');
    expect((error as Error).message).to.match(/^OAuth token endpoint \(refresh_token\): upstream total timeout/);
  });

  it('gives the three calls of an exchange one 15 s budget', async () => {
    const budgets: number[] = [];
    const recording: UpstreamClient = {
      async send(req) {
        budgets.push(req.timeouts.totalMs);
        expect(req.timeouts.connectMs).to.equal(10_000);
        // The organisations call takes 300 ms; authorize then stalls until its timeout.
        if (budgets.length === 1) await new Promise((resolve) => setTimeout(resolve, 300));
        else throw new GatewayError('GW_UPSTREAM_TIMEOUT', `upstream total timeout after ${req.timeouts.totalMs}ms`);
        return { status: 200, headers: {}, body: Readable.from([Buffer.from(JSON.stringify([{ uuid: ORG, capabilities: ['chat'] }]))]), latencyMs: 300 };
      },
      cutAll() {},
      close() {},
    };
    const client = createClaudeOAuthClient({ http: recording, timeouts: platformTimeouts, options, now: () => NOW });
    const error = await rejection(client.exchangeSessionKey(SESSION_KEY));
    expect((error as Error).message).to.match(/^claude\.ai authorize: upstream total timeout/);
    expect(budgets[0]).to.be.within(14_990, 15_000);
    expect(budgets[1]).to.be.within(14_000, 14_710);
  });
});

/** Polls without timers (they may be mocked): a turn of the event loop per try. */
async function until(condition: () => boolean, tries = 5000): Promise<void> {
  for (let i = 0; i < tries && !condition(); i += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(condition(), 'condition never became true').to.equal(true);
}

/** Whether the promise settles within a few turns of the event loop. */
async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let i = 0; i < 200 && !settled; i += 1) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}
