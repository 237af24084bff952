import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { createSqliteStore } from '../../../core/store/sqlite-store';
import type { Store } from '../../../core/store/store';
import { createManualClock, describeStoreContract, expectGatewayError } from './store-contract';

const REPO_ROOT = path.resolve(__dirname, '../../..');

describe('createSqliteStore', () => {
  let dir: string;
  let counter = 0;
  const opened: Store[] = [];
  const rawOpened: Database.Database[] = [];

  function freshPath(): string {
    counter += 1;
    return path.join(dir, `store-${counter}.db`);
  }
  function open(file: string, now?: () => number): Store {
    const store = createSqliteStore(file, now);
    opened.push(store);
    return store;
  }
  /** A connection of its own, as an operator's sqlite3 shell would have. */
  function raw(file: string): Database.Database {
    const db = new Database(file);
    rawOpened.push(db);
    return db;
  }
  function rowCount(file: string): number {
    return raw(file).prepare<[], { n: number }>('SELECT count(*) AS n FROM entries').get()?.n ?? -1;
  }

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-sqlite-store-'));
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    for (const db of rawOpened.splice(0)) db.close();
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describeStoreContract((now) => open(freshPath(), now));

  it('creates missing parent directories, an owner-only file in WAL mode', async () => {
    const file = path.join(dir, 'nested', 'deeper', 'gateway.db');
    const store = open(file);
    await store.set('ns', 'k', 'v');
    expect(fs.existsSync(file)).to.equal(true);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    expect(raw(file).pragma('journal_mode', { simple: true })).to.equal('wal');
  });

  it('keeps entries across close and reopen of the same file', async () => {
    const file = freshPath();
    const first = createSqliteStore(file);
    await first.set('tokens', 'a', { state: 'healthy', requests: 3 });
    await first.set('tokens', 'b', { state: 'limit_marked' }, { ttlMs: 3600_000 });
    await first.set('tasks', 't1', { status: 'queued' });
    await first.delete('tasks', 't1');
    await first.close();

    const second = open(file);
    expect(await second.list('tokens')).to.deep.equal([
      { key: 'a', value: { state: 'healthy', requests: 3 } },
      { key: 'b', value: { state: 'limit_marked' } },
    ]);
    expect(await second.get('tasks', 't1')).to.equal(undefined);
  });

  it('has a write on disk when set resolves: a second connection sees it while the first is still open', async () => {
    const file = freshPath();
    const writer = open(file);
    await writer.set('credentials', 'c1', { accessToken: 'tok', expiresAt: 123 });

    const reader = open(file);
    expect(await reader.get('credentials', 'c1')).to.deep.equal({ accessToken: 'tok', expiresAt: 123 });
    expect(
      raw(file).prepare<[], { value: string }>("SELECT value FROM entries WHERE namespace = 'credentials'").get()?.value,
    ).to.equal('{"accessToken":"tok","expiresAt":123}');
  });

  it('keeps a write made by a process that is then killed without closing the store', async function () {
    this.timeout(30_000);
    const file = freshPath();
    const script = `
      const { createSqliteStore } = require('./core/store/sqlite-store.ts');
      const store = createSqliteStore(process.argv[1]);
      store.set('tasks', 'img-1', { status: 'in_progress', n: 1 })
        .then(() => store.set('tasks', 'img-2', { status: 'queued' }))
        .then(() => process.kill(process.pid, 'SIGKILL'));
    `;
    const run = promisify(execFile)(process.execPath, ['--require', 'tsx/cjs', '-e', script, file], { cwd: REPO_ROOT });
    const failure = await run.then(
      () => undefined,
      (error: NodeJS.ErrnoException & { signal?: string; stderr?: string }) => error,
    );
    expect(failure?.signal, failure?.stderr).to.equal('SIGKILL');

    const store = open(file);
    expect(await store.list('tasks')).to.deep.equal([
      { key: 'img-1', value: { status: 'in_progress', n: 1 } },
      { key: 'img-2', value: { status: 'queued' } },
    ]);
  });

  it('deletes an expired row when a read meets it', async () => {
    const clock = createManualClock();
    const file = freshPath();
    const store = open(file, clock.now);
    await store.set('sig', 'a', 'x', { ttlMs: 10 });
    await store.set('sig', 'b', 'y', { ttlMs: 10 });
    await store.set('sig', 'c', 'z');
    clock.advance(10);
    expect(await store.get('sig', 'a')).to.equal(undefined);
    expect(rowCount(file)).to.equal(2);
    expect(await store.list('sig')).to.deep.equal([{ key: 'c', value: 'z' }]);
    expect(rowCount(file)).to.equal(1);
  });

  it('purges expired rows at open and, at most once a minute, on write', async () => {
    const clock = createManualClock();
    const file = freshPath();
    const first = createSqliteStore(file, clock.now);
    await first.set('sig', 'old', 'x', { ttlMs: 1000 });
    await first.set('sig', 'kept', 'y');
    await first.close();
    clock.advance(1000);
    const store = open(file, clock.now);
    expect(rowCount(file)).to.equal(1);

    await store.set('sig', 'soon', 'x', { ttlMs: 1000 });
    clock.advance(30_000);
    await store.set('other', 'k', 1);
    expect(rowCount(file)).to.equal(3);
    clock.advance(30_000);
    await store.set('other', 'k2', 2);
    expect(rowCount(file)).to.equal(3);
  });

  it('names the file and the entry when a stored value is corrupt', async () => {
    const file = freshPath();
    const store = open(file);
    await store.set('tasks', 'broken', { ok: true });
    raw(file).prepare("UPDATE entries SET value = '{not json' WHERE key = 'broken'").run();
    const error = await expectGatewayError(store.get('tasks', 'broken'), file);
    expect(error.message).to.include('tasks/broken').and.include('corrupt');
    await expectGatewayError(store.list('tasks'), 'tasks/broken');
  });

  it('names the file when it is not a database', () => {
    const file = freshPath();
    fs.writeFileSync(file, 'this is a text file, not a database\n'.repeat(20));
    expect(() => createSqliteStore(file))
      .to.throw()
      .that.satisfies((error: Error) => isGatewayError(error) && error.message.includes(file) && /not a database/.test(error.message));
  });

  it('names the path when it is a directory', () => {
    const file = path.join(dir, 'a-directory');
    fs.mkdirSync(file);
    expect(() => createSqliteStore(file))
      .to.throw()
      .that.satisfies((error: Error) => isGatewayError(error) && error.message.includes(file));
  });

  it('names the file when a call comes after close', async () => {
    const file = freshPath();
    const store = createSqliteStore(file);
    await store.close();
    await expectGatewayError(store.get('ns', 'k'), file);
  });

  /** Largest gap between ticks of a 5 ms interval while `promise` runs: how long the event loop was held. */
  async function longestStall(promise: Promise<unknown>): Promise<number> {
    let last = performance.now();
    let longest = 0;
    const timer = setInterval(() => {
      const at = performance.now();
      longest = Math.max(longest, at - last);
      last = at;
    }, 5);
    try {
      await promise;
    } finally {
      clearInterval(timer);
    }
    return Math.max(longest, performance.now() - last);
  }

  it('waits for another connection\'s write lock without holding the event loop, then writes', async () => {
    const file = freshPath();
    const store = open(file);
    await store.set('ns', 'k', 1);
    const other = raw(file);
    other.exec('BEGIN IMMEDIATE');
    setTimeout(() => other.exec('ROLLBACK'), 300);
    const started = performance.now();
    const stall = await longestStall(store.set('ns', 'k', 2));
    expect(performance.now() - started).to.be.at.least(250);
    // Not an assertion on speed: a blocked loop would stall for the whole 300 ms (better-sqlite3's default is 5 s).
    expect(stall).to.be.below(200);
    expect(await store.get('ns', 'k')).to.equal(2);
    expect(await store.delete('ns', 'k')).to.equal(true);
  });

  it('gives up on a lock held for good with an error naming the file, the loop running all along', async () => {
    const file = freshPath();
    const store = open(file);
    const other = raw(file);
    other.exec('BEGIN IMMEDIATE');
    let settled: Promise<unknown> = Promise.resolve();
    const stall = await longestStall((settled = expectGatewayError(store.set('ns', 'k', 1), file)).catch(() => undefined));
    await settled;
    expect(stall).to.be.below(200);
    other.exec('ROLLBACK');
    // Reads do not wait for the lock (WAL), and the write goes through once it is released.
    await store.set('ns', 'k', 1);
    expect(await store.get('ns', 'k')).to.equal(1);
  });

  it('lets a later write of an entry win over an earlier one still waiting out a lock', async () => {
    const file = freshPath();
    const store = open(file);
    await store.set('ns', 'k', 'v0');
    const other = raw(file);
    other.exec('BEGIN IMMEDIATE');
    const older = store.set('ns', 'k', 'older');
    await new Promise((resolve) => setTimeout(resolve, 60));
    other.exec('COMMIT');
    const newer = store.set('ns', 'k', 'newer');
    await Promise.all([older, newer]);
    // The waiting write must not land after the later one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await store.get('ns', 'k')).to.equal('newer');
  });
});
