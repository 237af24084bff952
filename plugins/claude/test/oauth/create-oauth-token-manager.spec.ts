import { expect } from 'chai';
import winston from 'winston';
import { GatewayError } from '@gateway/core';
import { createMemoryStore } from '../../../../core/store/memory-store';
import { createOAuthTokenManager, STORED_TOKEN_TTL_MS } from '../../src/oauth/create-oauth-token-manager';
import { credentialRejected } from '../../src/oauth/oauth-errors';
import type { OAuthTokens } from '../../src/oauth/parse-token-response';
import { rejection } from '../../../../test/helpers/rejection';

const log = winston.createLogger({ silent: true });

/** Lets pending promise callbacks (a background refresh) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** The promise's value, or a failure when it is still pending after 200 ms: a waiting request would hang. */
function settledWithin<T>(promise: Promise<T>, ms = 200): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
const credential = { id: 'cred-1', sessionKey: 'sk-ant-sid01-key', masked: 'sk-ant-...key' };
const HOUR = 3_600_000;

/** A fake OAuth client whose calls are counted and whose answers the test controls. */
function fakeClient(clock: { now: number }) {
  let issued = 0;
  const calls = { exchange: 0, refresh: 0 };
  let refreshBehaviour: 'ok' | 'rejected' | 'transient' = 'ok';
  let exchangeBehaviour: 'ok' | 'transient' = 'ok';
  let gate: Promise<void> | undefined;
  const tokens = (): OAuthTokens => {
    issued += 1;
    return { accessToken: `access-${issued}`, refreshToken: `refresh-${issued}`, expiresAt: clock.now + HOUR, obtainedAt: clock.now };
  };
  return {
    calls,
    setRefresh(behaviour: 'ok' | 'rejected' | 'transient') {
      refreshBehaviour = behaviour;
    },
    setExchange(behaviour: 'ok' | 'transient') {
      exchangeBehaviour = behaviour;
    },
    /** Holds exchanges and refreshes until the returned function is called. */
    hold(): () => void {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return release;
    },
    client: {
      async exchangeSessionKey(): Promise<OAuthTokens> {
        calls.exchange += 1;
        if (gate) await gate;
        if (exchangeBehaviour === 'transient') throw new GatewayError('GW_UPSTREAM_TIMEOUT', 'claude.ai /api/organizations: upstream total timeout');
        return tokens();
      },
      async refresh(): Promise<OAuthTokens> {
        calls.refresh += 1;
        if (gate) await gate;
        if (refreshBehaviour === 'rejected') throw credentialRejected('refresh refused (invalid_grant)', []);
        if (refreshBehaviour === 'transient') throw new GatewayError('GW_UPSTREAM_UNREACHABLE', 'token endpoint unreachable');
        return tokens();
      },
    },
  };
}

function setup() {
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
  const store = createMemoryStore(() => clock.now);
  const fake = fakeClient(clock);
  const make = () => createOAuthTokenManager({ platform: 'claude', store, client: fake.client, log, now: () => clock.now });
  return { clock, store, fake, manager: make(), make };
}

describe('OAuth token manager', () => {
  it('exchanges once, stores the tokens under claude-oauth:<platform>, and reuses them', async () => {
    const { fake, manager, store } = setup();
    expect(await manager.accessToken(credential)).to.equal('access-1');
    expect(await manager.accessToken(credential)).to.equal('access-1');
    expect(fake.calls).to.deep.equal({ exchange: 1, refresh: 0 });
    expect(await store.get<OAuthTokens>('claude-oauth:claude', 'cred-1')).to.deep.include({ accessToken: 'access-1', refreshToken: 'refresh-1' });
  });

  it('after a restart (new manager, same store) loads the stored token instead of exchanging again', async () => {
    const { fake, manager, make } = setup();
    await manager.accessToken(credential);
    const restarted = make();
    await restarted.load(['cred-1']);
    expect(await restarted.accessToken(credential)).to.equal('access-1');
    expect(fake.calls.exchange).to.equal(1);
    expect(restarted.expiresAt('cred-1')).to.be.a('number');
  });

  it('deletes at start-up the stored tokens of a session key no longer configured (its refresh token is a live credential)', async () => {
    const { manager, make, store } = setup();
    await manager.accessToken(credential);
    const restarted = make();
    await restarted.load(['cred-2']);
    expect(await store.get('claude-oauth:claude', 'cred-1')).to.equal(undefined);
    expect(await store.list('claude-oauth:claude')).to.deep.equal([]);
  });

  it('keeps a stored token set 30 days past its last renewal: a platform taken out of the config does not keep live tokens in the store', async () => {
    const { manager, store, clock, make, fake } = setup();
    await manager.accessToken(credential);
    clock.now += STORED_TOKEN_TTL_MS - 1;
    expect(await store.get('claude-oauth:claude', 'cred-1')).to.not.equal(undefined);
    clock.now += 1;
    expect(await store.list('claude-oauth:claude')).to.deep.equal([]);
    // The platform back in use after that: its session key exchanges again.
    const restarted = make();
    await restarted.load(['cred-1']);
    expect(await restarted.accessToken(credential)).to.equal('access-2');
    expect(fake.calls.exchange).to.equal(2);
  });

  it('uses a token it obtained even when the store cannot save it (locked, disk full): the refresh already revoked the old one', async () => {
    const { clock, fake, manager, store } = setup();
    await manager.accessToken(credential);
    store.set = () => Promise.reject(new Error('sqlite store gw.db: set failed: database is locked'));
    clock.now += HOUR + 1;
    expect(await manager.accessToken(credential)).to.equal('access-2');
    expect(await manager.accessToken(credential)).to.equal('access-2');
    expect(fake.calls).to.deep.equal({ exchange: 1, refresh: 1 });
  });

  it('deletes a stored token row it cannot read (a damaged file) and exchanges the session key again, rather than stop start-up', async () => {
    const { fake, make, store } = setup();
    const listed = store.list.bind(store);
    // The sqlite driver hands a row that is not JSON to onUnreadable and leaves it out.
    store.list = async <T>(namespace: string, options?: { onUnreadable?: (key: string, error: Error) => void }) => {
      options?.onUnreadable?.('cred-1', new Error('corrupt value (not JSON)'));
      return listed<T>(namespace);
    };
    await store.set('claude-oauth:claude', 'cred-1', { accessToken: 'stale' });
    const restarted = make();
    await restarted.load(['cred-1']);
    expect(await store.get('claude-oauth:claude', 'cred-1')).to.equal(undefined);
    expect(await restarted.accessToken(credential)).to.equal('access-1');
    expect(fake.calls.exchange).to.equal(1);
  });

  it('refreshes early within five minutes of expiry, and not before, in the background', async () => {
    const { clock, fake, manager } = setup();
    await manager.accessToken(credential);
    clock.now += HOUR - 6 * 60_000;
    expect(await manager.accessToken(credential)).to.equal('access-1');
    expect(fake.calls.refresh).to.equal(0);
    clock.now += 2 * 60_000;
    // The token still works: this request uses it, the refresh runs meanwhile.
    expect(await manager.accessToken(credential)).to.equal('access-1');
    await settle();
    expect(await manager.accessToken(credential)).to.equal('access-2');
    expect(fake.calls).to.deep.equal({ exchange: 1, refresh: 1 });
  });

  it('serves the still-valid token at once while its early refresh stalls, with one refresh for all', async () => {
    const { clock, fake, manager } = setup();
    await manager.accessToken(credential);
    clock.now += HOUR - 60_000;
    const release = fake.hold();
    const answers = await settledWithin(Promise.all([manager.accessToken(credential), manager.accessToken(credential), manager.accessToken(credential)]));
    expect(answers).to.deep.equal(['access-1', 'access-1', 'access-1']);
    expect(fake.calls.refresh).to.equal(1);
    release();
    await settle();
    expect(await manager.accessToken(credential)).to.equal('access-2');
    expect(fake.calls.refresh).to.equal(1);
  });

  it('at shutdown waits for a background refresh to store its rotated token, until the grace period is over', async () => {
    const { clock, fake, manager, store } = setup();
    await manager.accessToken(credential);
    clock.now += HOUR - 60_000;
    const release = fake.hold();
    expect(await manager.accessToken(credential)).to.equal('access-1');
    let settled = false;
    const waiting = manager.settle(new Promise<void>(() => undefined)).then(() => (settled = true));
    await settle();
    expect(settled).to.equal(false);
    release();
    await waiting;
    expect(await store.get<OAuthTokens>('claude-oauth:claude', 'cred-1')).to.deep.include({ refreshToken: 'refresh-2' });
    // A refresh that outlasts the grace period is not waited for past it.
    clock.now += 2 * HOUR;
    fake.hold();
    void manager.accessToken(credential).catch(() => undefined);
    await settledWithin(manager.settle(Promise.resolve()));
  });

  it('after a failed early refresh, keeps the current token for 30 s before trying again', async () => {
    const { clock, fake, manager } = setup();
    await manager.accessToken(credential);
    fake.setRefresh('transient');
    clock.now += HOUR - 4 * 60_000;
    expect(await manager.accessToken(credential)).to.equal('access-1');
    await settle();
    clock.now += 20_000;
    expect(await manager.accessToken(credential)).to.equal('access-1');
    expect(fake.calls.refresh).to.equal(1);
    fake.setRefresh('ok');
    clock.now += 10_000;
    expect(await manager.accessToken(credential)).to.equal('access-1');
    await settle();
    expect(await manager.accessToken(credential)).to.equal('access-2');
    expect(fake.calls.refresh).to.equal(2);
  });

  it('a waiting request stops waiting when its client goes away; the shared exchange goes on for the others', async () => {
    const { fake, manager } = setup();
    const release = fake.hold();
    const client = new AbortController();
    const leaving = manager.accessToken(credential, { signal: client.signal });
    const staying = manager.accessToken(credential, { signal: new AbortController().signal });
    await settle();
    client.abort();
    const error = await settledWithin(rejection(leaving));
    expect((error as GatewayError).code).to.equal('GW_CLIENT_CLOSED');
    release();
    expect(await staying).to.equal('access-1');
    expect(fake.calls.exchange).to.equal(1);
  });

  it('does not start an exchange for a client that is already gone', async () => {
    const { fake, manager } = setup();
    const error = await rejection(manager.accessToken(credential, { signal: AbortSignal.abort() }));
    expect((error as GatewayError).code).to.equal('GW_CLIENT_CLOSED');
    expect(fake.calls.exchange).to.equal(0);
  });

  it('leaves no unhandled rejection when every waiter left and the exchange then fails', async () => {
    const { fake, manager } = setup();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      fake.setExchange('transient');
      const release = fake.hold();
      const client = new AbortController();
      const leaving = manager.accessToken(credential, { signal: client.signal });
      client.abort();
      await rejection(leaving);
      release();
      await settle();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a request waiting for a refresh after a 401 stops waiting when its client goes away', async () => {
    const { fake, manager } = setup();
    await manager.accessToken(credential);
    const release = fake.hold();
    const client = new AbortController();
    const leaving = manager.refreshAfterRejection(credential, 'access-1', { signal: client.signal });
    client.abort();
    expect(((await settledWithin(rejection(leaving))) as GatewayError).code).to.equal('GW_CLIENT_CLOSED');
    release();
    await settle();
    expect(await manager.accessToken(credential)).to.equal('access-2');
  });

  it('keeps serving the current token when a proactive refresh fails transiently, but not once it expired', async () => {
    const { clock, fake, manager } = setup();
    await manager.accessToken(credential);
    fake.setRefresh('transient');
    clock.now += HOUR - 60_000;
    expect(await manager.accessToken(credential)).to.equal('access-1');
    clock.now += 2 * 60_000;
    const error = await manager.accessToken(credential).then(() => undefined, (e: unknown) => e);
    expect((error as GatewayError).code).to.equal('GW_UPSTREAM_UNREACHABLE');
  });

  it('falls back to a new exchange when the refresh token is refused', async () => {
    const { clock, fake, manager } = setup();
    await manager.accessToken(credential);
    fake.setRefresh('rejected');
    clock.now += HOUR;
    expect(await manager.accessToken(credential)).to.equal('access-2');
    expect(fake.calls).to.deep.equal({ exchange: 2, refresh: 1 });
  });

  it('runs one refresh for concurrent callers that all need it (single flight)', async () => {
    const { clock, fake, manager } = setup();
    await manager.accessToken(credential);
    clock.now += HOUR + 1;
    const release = fake.hold();
    const waiting = [manager.accessToken(credential), manager.accessToken(credential), manager.refreshAfterRejection(credential, 'access-1')];
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const [a, b] = await Promise.all(waiting);
    expect([a, b]).to.deep.equal(['access-2', 'access-2']);
    expect(fake.calls.refresh).to.equal(1);
  });

  it('does not refresh after a 401 when another request already replaced the refused token', async () => {
    const { fake, manager } = setup();
    await manager.accessToken(credential);
    await manager.refreshAfterRejection(credential, 'access-1');
    await manager.refreshAfterRejection(credential, 'access-1');
    expect(fake.calls.refresh).to.equal(1);
    expect(await manager.accessToken(credential)).to.equal('access-2');
  });

  it('forgets a credential’s tokens so the next call exchanges again', async () => {
    const { fake, manager, store } = setup();
    await manager.accessToken(credential);
    await manager.forget('cred-1');
    expect(await store.get('claude-oauth:claude', 'cred-1')).to.equal(undefined);
    await manager.accessToken(credential);
    expect(fake.calls.exchange).to.equal(2);
  });
});
