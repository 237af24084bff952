import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mock } from 'node:test';
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
  function open(file: string, now?: () => number, syncFile?: (fd: number) => Promise<void>): Store {
    const store = createSqliteStore(file, { now, syncFile });
    opened.push(store);
    return store;
  }
  /** A connection of its own, as an operator's sqlite3 shell would have: only while no store holds the file. */
  function raw(file: string): Database.Database {
    const db = new Database(file);
    rawOpened.push(db);
    return db;
  }
  /** Rows in the file, counted once `store` has let go of it. */
  async function rowCountAfterClose(store: Store, file: string): Promise<number> {
    await store.close();
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare<[], { n: number }>('SELECT count(*) AS n FROM entries').get()?.n ?? -1;
    } finally {
      db.close();
    }
  }
  /**
   * Another process holding `file`: runs `script` (argv[1] is the file) with tsx, resolves once it prints "held"; it
   * lets go by itself, as the script says.
   */
  async function holdInAnotherProcess(file: string, script: string): Promise<{ exited: Promise<number | null> }> {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', script, file], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('held')) resolve();
      });
      void exited.then((code) => reject(new Error(`the holding process exited (${code}) before holding the file`)));
    });
    return { exited };
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
    await store.close();
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

  it('holds its file: a second store on it fails at open, naming the file and the other gateway process', async () => {
    const file = freshPath();
    const first = open(file);
    await first.set('credentials', 'c1', { state: 'abnormal' });
    const started = performance.now();
    expect(() => createSqliteStore(file, { lockWaitMs: 200 }))
      .to.throw()
      .that.satisfies((error: Error) => isGatewayError(error) && error.message.includes(file) && /another gateway process uses this store file/.test(error.message));
    expect(performance.now() - started).to.be.at.least(150);
    // Nor can another connection write over the first store's state.
    const shell = new Database(file, { timeout: 50 });
    rawOpened.push(shell);
    expect(() => shell.exec("UPDATE entries SET value = '{}'")).to.throw(/locked/);
    expect(await first.get('credentials', 'c1')).to.deep.equal({ state: 'abnormal' });
  });

  it('waits at open for another process to let go of the file (a rolling restart), then sees its last write', async function () {
    this.timeout(30_000);
    const file = freshPath();
    const old = await holdInAnotherProcess(file, `
      const { createSqliteStore } = require('./core/store/sqlite-store.ts');
      const store = createSqliteStore(process.argv[1]);
      store.set('tasks', 't', 'running').then(() => {
        console.log('held');
        // The old process's shutdown: its last write, then the file is let go.
        setTimeout(() => store.set('tasks', 't', 'saved at shutdown').then(() => store.close()), 700);
      });
    `);
    const started = performance.now();
    const store = open(file);
    expect(performance.now() - started).to.be.at.least(300);
    expect(await store.get('tasks', 't')).to.equal('saved at shutdown');
    expect(await old.exited).to.equal(0);
  });

  it("waits at open for another connection's write lock to end, instead of failing start-up on it", async function () {
    this.timeout(30_000);
    const file = freshPath();
    const seeded = open(file);
    await seeded.set('sig', 'old', 'x', { ttlMs: 1 });
    await seeded.close();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const shell = await holdInAnotherProcess(file, `
      const db = new (require('better-sqlite3'))(process.argv[1]);
      db.exec('BEGIN IMMEDIATE');
      console.log('held');
      setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, 500);
    `);
    const store = open(file);
    expect(await store.list('sig')).to.deep.equal([]);
    expect(await rowCountAfterClose(store, file)).to.equal(0);
    expect(await shell.exited).to.equal(0);
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

  it('refuses a database file truncated to 0 bytes beside a write-ahead log that holds its writes; opens an empty file alone', async () => {
    const file = freshPath();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
    const empty = open(file);
    expect(await empty.list('tasks')).to.deep.equal([]);
    await empty.close();
    fs.writeFileSync(file, '');
    fs.writeFileSync(`${file}-wal`, Buffer.alloc(4096, 1));
    expect(() => open(file)).to.throw(/the database file is empty but its write-ahead log .* is not: the file was truncated/);
  });

  /** Three rows in 'sig': a and b expire after 10 ms, c never. */
  async function withExpiringRows(): Promise<{ file: string; store: Store; clock: ReturnType<typeof createManualClock> }> {
    const clock = createManualClock();
    const file = freshPath();
    const store = open(file, clock.now);
    await store.set('sig', 'a', 'x', { ttlMs: 10 });
    await store.set('sig', 'b', 'y', { ttlMs: 10 });
    await store.set('sig', 'c', 'z');
    clock.advance(10);
    return { file, store, clock };
  }

  it('deletes an expired row when a get meets it', async () => {
    const { file, store } = await withExpiringRows();
    expect(await store.get('sig', 'a')).to.equal(undefined);
    expect(await rowCountAfterClose(store, file)).to.equal(2);
  });

  it('deletes the expired rows of a namespace when a list meets them', async () => {
    const { file, store } = await withExpiringRows();
    expect(await store.list('sig')).to.deep.equal([{ key: 'c', value: 'z' }]);
    expect(await rowCountAfterClose(store, file)).to.equal(1);
  });

  it('purges expired rows at open', async () => {
    const { file, store, clock } = await withExpiringRows();
    await store.close();
    expect(await rowCountAfterClose(open(file, clock.now), file)).to.equal(1);
  });

  it('purges expired rows on write at most once a minute', async () => {
    const first = await withExpiringRows();
    first.clock.advance(59_000);
    await first.store.set('other', 'k', 1);
    expect(await rowCountAfterClose(first.store, first.file)).to.equal(4);

    const second = await withExpiringRows();
    second.clock.advance(60_000);
    await second.store.set('other', 'k', 1);
    expect(await rowCountAfterClose(second.store, second.file)).to.equal(2);
  });

  /** A file whose row tasks/broken is not JSON (a damaged file, a hand edit), beside a good row tasks/ok. */
  async function withCorruptRow(): Promise<string> {
    const file = freshPath();
    const store = open(file);
    await store.set('tasks', 'broken', { ok: false });
    await store.set('tasks', 'ok', { ok: true });
    await store.close();
    raw(file).prepare("UPDATE entries SET value = '{not json' WHERE key = 'broken'").run();
    for (const db of rawOpened.splice(0)) db.close();
    return file;
  }

  it('names the file and the entry when a stored value is corrupt', async () => {
    const file = await withCorruptRow();
    const store = open(file);
    const error = await expectGatewayError(store.get('tasks', 'broken'), file);
    expect(error.message).to.include('tasks/broken').and.include('corrupt');
    await expectGatewayError(store.list('tasks'), 'tasks/broken');
  });

  it('lists the readable rows and hands the others to onUnreadable, when given', async () => {
    const store = open(await withCorruptRow());
    const unreadable: Array<{ key: string; message: string }> = [];
    const listed = await store.list('tasks', { onUnreadable: (key, error) => unreadable.push({ key, message: error.message }) });
    expect(listed).to.deep.equal([{ key: 'ok', value: { ok: true } }]);
    expect(unreadable).to.have.length(1);
    expect(unreadable[0].key).to.equal('broken');
    expect(unreadable[0].message).to.include('tasks/broken').and.include('not JSON');
  });

  it('reads an entry that cannot be decoded as absent and hands it to onUnreadable, when given', async () => {
    const store = open(await withCorruptRow());
    const unreadable: Array<{ key: string; message: string }> = [];
    const onUnreadable = (key: string, error: Error) => unreadable.push({ key, message: error.message });
    expect(await store.get('tasks', 'broken', { onUnreadable })).to.equal(undefined);
    expect(await store.get('tasks', 'ok', { onUnreadable })).to.deep.equal({ ok: true });
    expect(unreadable).to.have.length(1);
    expect(unreadable[0].key).to.equal('broken');
    expect(unreadable[0].message).to.include('tasks/broken').and.include('not JSON');
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

  it('resolves a write once the write-ahead log has been flushed to the disk, off the event loop, and fails it when the flush fails', async () => {
    const file = freshPath();
    const flushed: Array<{ ino: number; end: (error?: Error) => void }> = [];
    const syncFile = (fd: number): Promise<void> =>
      new Promise((resolve, reject) => flushed.push({ ino: fs.fstatSync(fd).ino, end: (error) => (error ? reject(error) : resolve()) }));
    const store = createSqliteStore(file, { syncFile });
    opened.push(store);
    let done = false;
    const write = store.set('credentials', 'c1', { state: 'limit_marked' }).then(() => (done = true));
    // The log's folder is flushed once, when the log is first opened, then the log itself.
    for (let i = 0; i < 50 && flushed.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(flushed.map((f) => f.ino)).to.deep.equal([fs.statSync(dir).ino]);
    flushed[0].end();
    for (let i = 0; i < 50 && flushed.length === 1; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(flushed[1].ino).to.equal(fs.statSync(`${file}-wal`).ino);
    expect(done).to.equal(false);
    flushed[1].end();
    await write;
    expect(done).to.equal(true);

    const refused = store.delete('credentials', 'c1');
    for (let i = 0; i < 50 && flushed.length === 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    flushed[2].end(new Error('EIO: i/o error, fsync'));
    const error = await expectGatewayError(refused, file);
    expect(error.message).to.include('delete credentials/c1 failed').and.include('EIO');
    // For good: a later flush may succeed without the pages the failed one lost (the kernel marks them clean), and
    // recovery drops every commit after a lost one, so no later write is said to be on the disk.
    const later = await expectGatewayError(store.set('credentials', 'c2', { state: 'healthy' }), 'an earlier flush failed (EIO');
    expect(later.message).to.include('set credentials/c2 failed');
    expect(flushed).to.have.length(3);
  });

  it('fails only the write whose log could not be opened (too many open files): the next opens it and is flushed', async () => {
    const file = freshPath();
    const realOpen = fs.open;
    let refusals = 1;
    const opening = mock.method(fs, 'open', (target: fs.PathLike, flags: fs.OpenMode, ...rest: unknown[]) => {
      if (String(target).endsWith('-wal') && refusals-- > 0) return (rest.at(-1) as (error: Error) => void)(Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' }));
      return (realOpen as (...args: unknown[]) => void)(target, flags, ...rest);
    });
    try {
      const store = open(file);
      await expectGatewayError(store.set('ns', 'a', 1), 'EMFILE');
      await store.set('ns', 'b', 2);
      expect(await store.get('ns', 'b')).to.equal(2);
    } finally {
      opening.mock.restore();
    }
  });

  it('closes once when closed twice at the same time', async () => {
    const store = createSqliteStore(freshPath());
    await store.set('ns', 'k', 'v');
    expect(await Promise.allSettled([store.close(), store.close()])).to.deep.equal([
      { status: 'fulfilled', value: undefined },
      { status: 'fulfilled', value: undefined },
    ]);
  });

  it("takes a file system's refusal to flush a folder as SQLite does: the write resolves once its log is flushed", async () => {
    const file = freshPath();
    const flushed: string[] = [];
    const syncFile = async (fd: number): Promise<void> => {
      if (fs.fstatSync(fd).isDirectory()) throw Object.assign(new Error('EINVAL: invalid argument, fdatasync'), { code: 'EINVAL' });
      flushed.push('log');
    };
    const store = open(file, undefined, syncFile);
    await store.set('credentials', 'c1', { state: 'healthy' });
    expect(flushed).to.deep.equal(['log']);
  });

  it('closes while a write waits for its flush: the write resolves, and is in the file when it is opened again', async () => {
    const file = freshPath();
    const slowSync = (fd: number): Promise<void> => new Promise((resolve, reject) => setTimeout(() => fs.fdatasync(fd, (error) => (error ? reject(error) : resolve())), 50));
    const store = createSqliteStore(file, { syncFile: slowSync });
    await store.set('tasks', 'first', { status: 'queued' });
    const pending = store.set('tasks', 't1', { status: 'completed' });
    await store.close();
    await pending;
    expect(fs.existsSync(`${file}-wal`)).to.equal(false);
    expect(await open(file).get('tasks', 't1')).to.deep.equal({ status: 'completed' });
  });

  it('names the file when a call comes after close', async () => {
    const file = freshPath();
    const store = createSqliteStore(file);
    await store.close();
    await expectGatewayError(store.get('ns', 'k'), file);
  });
});
