import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { mock } from 'node:test';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import winston from 'winston';
import { createCredentialPool } from '../../../core/credentials/create-credential-pool';
import { credentialId } from '../../../core/credentials/credential-id';
import { createMemoryStore } from '../../../core/store/memory-store';
import { createSqliteStore } from '../../../core/store/sqlite-store';
import type { Store } from '../../../core/store/store';

const silent = winston.createLogger({ silent: true });

function capturingLogger(): { log: winston.Logger; entries: Array<Record<string, unknown>> } {
  const entries: Array<Record<string, unknown>> = [];
  const stream = new Writable({ objectMode: true, write: (entry: Record<string, unknown>, _encoding, done) => (entries.push(entry), done()) });
  return { log: winston.createLogger({ level: 'warn', transports: [new winston.transports.Stream({ stream })] }), entries };
}

function makePool(store: Store, clock: { now: number }, keys = ['key-aaaaaaaa1', 'key-bbbbbbbb2', 'key-cccccccc3']) {
  return createCredentialPool({
    platform: 'p',
    store,
    log: silent,
    now: () => clock.now,
    credentials: keys.map((key, i) => ({ kind: 'apiKey', secret: key, key, tier: i === 0 ? 'premium' : 'basic' })),
  });
}

describe('createCredentialPool', () => {
  it('hands out healthy credentials round-robin', () => {
    const pool = makePool(createMemoryStore(), { now: 0 });
    const picked = [1, 2, 3, 4].map(() => pool.acquire()!.secret);
    expect(picked).to.deep.equal(['key-aaaaaaaa1', 'key-bbbbbbbb2', 'key-cccccccc3', 'key-aaaaaaaa1']);
  });

  it('refuses one credential listed twice, naming both places (it would get twice its share, two rows of one status)', () => {
    expect(() => makePool(createMemoryStore(), { now: 0 }, ['key-aaaaaaaa1', 'key-bbbbbbbb2', 'key-aaaaaaaa1'])).to.throw(
      'platforms.p.credentials[2]: the same credential as credentials[0]',
    );
  });

  it('skips a cooling credential until its cooldown ends', async () => {
    const clock = { now: 1000 };
    const pool = makePool(createMemoryStore(), clock);
    const first = pool.acquire()!;
    await pool.markCooldown(first.id, 5000, 'rate limited');
    const seen = new Set([1, 2, 3, 4].map(() => pool.acquire()!.id));
    expect(seen.has(first.id)).to.equal(false);
    clock.now = 5000;
    expect(pool.state(first.id)).to.equal('healthy');
    const after = new Set([1, 2, 3].map(() => pool.acquire()!.id));
    expect(after.has(first.id)).to.equal(true);
  });

  it('never hands out an invalid credential and reports none usable when all are out', async () => {
    const pool = makePool(createMemoryStore(), { now: 0 }, ['only-key-000001']);
    const only = pool.acquire()!;
    await pool.markInvalid(only.id, 'bad key');
    expect(pool.acquire()).to.equal(undefined);
    expect(pool.view().credentials[0]).to.include({ state: 'invalid', lastError: 'bad key', errors: 1 });
  });

  it('respects exclude and accept (tier filter)', () => {
    const pool = makePool(createMemoryStore(), { now: 0 });
    const premium = pool.acquire({ accept: (e) => e.tier === 'premium' })!;
    expect(premium.secret).to.equal('key-aaaaaaaa1');
    expect(pool.acquire({ accept: (e) => e.tier === 'premium', exclude: new Set([premium.id]) })).to.equal(undefined);
  });

  it('keeps marks across a restart (same store) and forgets credentials removed from the config', async () => {
    const store = createMemoryStore();
    const clock = { now: 0 };
    const before = makePool(store, clock);
    const [a, b, c] = before.entries;
    await before.markCooldown(a.id, 60_000, 'limited');
    await before.markInvalid(b.id, 'banned', 'abnormal');
    await before.markInvalid(c.id, 'gone');
    const after = makePool(store, clock, ['key-aaaaaaaa1', 'key-bbbbbbbb2']);
    await after.load();
    expect(after.state(a.id)).to.equal('cooling_down');
    expect(after.state(b.id)).to.equal('abnormal');
    expect(await store.get('credentials:p', c.id)).to.equal(undefined);
  });

  it('says which marks it drops with a credential no longer configured (an environment variable unset for one start forgets a ban)', async () => {
    const store = createMemoryStore();
    const clock = { now: 0 };
    const before = makePool(store, clock);
    const [a, b, c] = before.entries;
    await before.markInvalid(b.id, 'HTTP 401: account suspended', 'abnormal');
    const { log, entries } = capturingLogger();
    const after = createCredentialPool({ platform: 'p', store, log, now: () => clock.now, credentials: [{ kind: 'apiKey', secret: 'key-aaaaaaaa1', key: 'key-aaaaaaaa1' }] });
    await after.load();
    expect(after.state(a.id)).to.equal('healthy');
    const warned = entries.filter((entry) => entry.level === 'warn').map(({ message, entry, state, reason }) => ({ message, entry, state, reason }));
    expect(warned).to.deep.equal([{ message: 'credential no longer configured: its mark is dropped', entry: `credentials:p/${b.id}`, state: 'abnormal', reason: 'HTTP 401: account suspended' }]);
    expect(JSON.stringify(entries)).not.to.contain(c.id);
  });

  it('bounds a cooldown to 31 days, so an absurd retry-after neither throws nor breaks the admin view, even once stored', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const store = createMemoryStore();
    const pool = makePool(store, clock);
    const id = pool.entries[0].id;
    await pool.markCooldown(id, clock.now + 1e16, 'retry-after: 10000000000000');
    const days31 = 31 * 24 * 3600 * 1000;
    expect(pool.status(id)?.cooldownUntil).to.equal(clock.now + days31);
    expect(pool.view().credentials[0]).to.include({ state: 'cooling_down', cooldownUntil: new Date(clock.now + days31).toISOString() });
    await pool.markCooldown(pool.entries[1].id, Number.NaN, 'no date');
    expect(pool.status(pool.entries[1].id)?.cooldownUntil).to.equal(clock.now + days31);
    // A mark stored by an earlier build, unbounded, comes back bounded.
    await store.set('credentials:p', id, { state: 'cooling_down', cooldownUntil: clock.now + 1e16, requests: 0, errors: 0 });
    const restarted = makePool(store, clock);
    await restarted.load();
    expect(() => restarted.view()).to.not.throw();
    expect(restarted.status(id)?.cooldownUntil).to.equal(clock.now + days31);
  });

  it('shows credentials masked in the admin view', () => {
    const pool = makePool(createMemoryStore(), { now: 0 });
    const view = pool.view();
    expect(view.platform).to.equal('p');
    expect(view.credentials.map((c) => c.masked)).to.deep.equal(['...aaa1', '...bbb2', '...ccc3']);
    expect(JSON.stringify(view)).not.to.include('key-aaaaaaaa1');
  });

  it('resets a credential to healthy', async () => {
    const pool = makePool(createMemoryStore(), { now: 0 });
    const id = pool.entries[0].id;
    await pool.markInvalid(id, 'x');
    expect(await pool.reset(id)).to.equal(true);
    expect(pool.state(id)).to.equal('healthy');
    expect(await pool.reset('nope')).to.equal(false);
  });

  it('keeps the longer cooldown when two answers for one credential race, keeps a quota mark labelled as such, and never lifts an invalid mark', async () => {
    const clock = { now: 1000 };
    const pool = makePool(createMemoryStore(), clock);
    const [a, b] = [pool.acquire()!, pool.acquire()!];
    await pool.markCooldown(a.id, 1000 + 3_600_000, 'quota exhausted', 'limit_marked');
    await pool.markCooldown(a.id, 2000, 'rate limited');
    expect(pool.status(a.id)).to.include({ state: 'limit_marked', cooldownUntil: 1000 + 3_600_000, reason: 'quota exhausted' });
    // A longer rate limit extends the quota mark; the admin view still says the quota is out.
    await pool.markCooldown(a.id, 1000 + 7_200_000, 'longer');
    expect(pool.status(a.id)).to.include({ state: 'limit_marked', cooldownUntil: 1000 + 7_200_000, reason: 'longer' });
    clock.now = 1000 + 7_200_000;
    expect(pool.state(a.id)).to.equal('healthy');
    await pool.markCooldown(a.id, clock.now + 1000, 'rate limited');
    expect(pool.status(a.id)).to.include({ state: 'cooling_down' });
    await pool.markInvalid(b.id, 'revoked');
    await pool.markCooldown(b.id, 5000, 'rate limited');
    clock.now = 10_000;
    expect(pool.state(b.id)).to.equal('invalid');
  });

  it('holds a mark the store cannot take (the request goes on) and writes it once the store recovers', async () => {
    const store = createMemoryStore();
    let failing = true;
    const flaky: Store = { ...store, set: (...args: Parameters<Store['set']>) => (failing ? Promise.reject(new Error('database is locked')) : store.set(...args)) };
    const pool = makePool(flaky, { now: 0 });
    const a = pool.acquire()!;
    await pool.markCooldown(a.id, 60_000, 'rate limited');
    expect(pool.state(a.id)).to.equal('cooling_down');
    expect(await store.get('credentials:p', a.id)).to.equal(undefined);
    // Still failing: the flush reports it and keeps the mark pending.
    let flushError: unknown;
    await pool.flush().catch((error: unknown) => (flushError = error));
    expect(String(flushError)).to.include('database is locked');
    failing = false;
    await pool.flush();
    expect(await store.get('credentials:p', a.id)).to.include({ state: 'cooling_down', cooldownUntil: 60_000 });
    const restarted = makePool(store, { now: 0 });
    await restarted.load();
    expect(restarted.state(a.id)).to.equal('cooling_down');
  });

  it('after close tries a refused write once, then never again in the background', async () => {
    const store = createMemoryStore();
    let attempts = 0;
    const refusing: Store = { ...store, set: () => ((attempts += 1), Promise.reject(new Error('the store is closed'))) };
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const pool = makePool(refusing, { now: 0 });
      const a = pool.acquire()!;
      await pool.markCooldown(a.id, 60_000, 'rate limited');
      expect(attempts).to.equal(1);
      const closing = await pool.close().then(() => 'closed', (error: unknown) => String(error));
      expect(closing).to.include('the store is closed');
      expect(attempts).to.equal(2);
      mock.timers.tick(60_000);
      await Promise.resolve();
      expect(attempts).to.equal(2);
    } finally {
      mock.timers.reset();
    }
  });
});

describe('createCredentialPool: stored rows it cannot read', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gw-pool-rows-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A logger that keeps its entries, for what load() warns about. */
  it('starts a credential whose row is not JSON, null or of an unknown state healthy, warns naming the row, and rewrites it', async () => {
    const file = path.join(dir, 'gateway.db');
    const keys = ['key-aaaaaaaa1', 'key-bbbbbbbb2', 'key-cccccccc3', 'key-dddddddd4'];
    const ids = keys.map(credentialId);
    const seed = createSqliteStore(file);
    for (const id of ids) await seed.set('credentials:p', id, { state: 'abnormal', requests: 5, errors: 1 });
    await seed.close();
    const db = new Database(file);
    const setRow = db.prepare<[string, string]>("UPDATE entries SET value = ? WHERE namespace = 'credentials:p' AND key = ?");
    setRow.run('{not json', ids[0]);
    setRow.run('null', ids[1]);
    setRow.run('{"state":"bogus","requests":"x"}', ids[2]);
    // A known state keeps its mark; a counter of the wrong type starts at 0.
    setRow.run('{"state":"abnormal","requests":"x","errors":2,"cooldownUntil":"soon"}', ids[3]);
    db.close();

    const store = createSqliteStore(file);
    try {
      const { log, entries } = capturingLogger();
      const pool = createCredentialPool({ platform: 'p', store, log, now: () => 0, credentials: keys.map((key) => ({ kind: 'apiKey', secret: key, key })) });
      await pool.load();
      expect(pool.view().credentials.map((c) => [c.state, c.requests, c.errors])).to.deep.equal([
        ['healthy', 0, 0],
        ['healthy', 0, 0],
        ['healthy', 0, 0],
        ['abnormal', 0, 2],
      ]);
      expect(pool.status(ids[3])?.cooldownUntil).to.equal(undefined);
      const warned = entries.filter((entry) => entry.level === 'warn').map((entry) => String(entry.entry));
      expect(warned).to.have.members(ids.slice(0, 3).map((id) => `credentials:p/${id}`));
      await pool.flush();
      for (const id of ids.slice(0, 3)) expect(await store.get('credentials:p', id)).to.deep.include({ state: 'healthy' });
    } finally {
      await store.close();
    }
  });

  it('holds a mark the store refuses to write (disk full) and writes it at the next flush', async () => {
    const store = createMemoryStore();
    const pool = makePool(store, { now: 0 });
    const [first] = pool.view().credentials;
    const set = store.set.bind(store);
    store.set = () => Promise.reject(new Error('sqlite store gw.db: set failed: disk I/O error'));
    await pool.markInvalid(first.id, 'upstream said the account is suspended', 'abnormal');
    expect(pool.view().credentials[0].state).to.equal('abnormal');
    store.set = set;
    await pool.flush();
    expect(await store.get('credentials:p', first.id)).to.deep.include({ state: 'abnormal' });
  });
});
