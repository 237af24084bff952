import fs from 'node:fs';
import nodePath from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { GatewayError, isGatewayError } from '../errors/gateway-error';
import { createGroupSync } from './create-group-sync';
import type { ReadOptions, Store } from './store';
import {
  PURGE_INTERVAL_MS,
  decodeListed,
  decodeRead,
  describe,
  encodeStoreValue,
  isLive,
  toExpiresAt,
} from './store-entry';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS entries (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    expires_at INTEGER,
    PRIMARY KEY (namespace, key)
  );
  CREATE INDEX IF NOT EXISTS entries_expires_at ON entries (expires_at) WHERE expires_at IS NOT NULL;
`;

type Row = { value: string; expiresAt: number | null };
type KeyedRow = Row & { key: string };

/**
 * How long opening waits for the file by default when another process holds it: the default shutdown grace period
 * (10 s) and a few seconds more, so that in a rolling restart the new process outwaits the old one's shutdown.
 */
const DEFAULT_LOCK_WAIT_MS = 15_000;

export interface SqliteStoreOptions {
  /** The clock, replaceable in tests. */
  now?: () => number;
  /** How long opening waits for another process to let go of the file before it fails (see DEFAULT_LOCK_WAIT_MS). */
  lockWaitMs?: number;
  /**
   * Flushes a file descriptor's data to the disk, replaceable in tests: `fs.fdatasync` (the log's size with it, which
   * is all of its metadata a read needs), as SQLite's own commit flush uses on Linux.
   */
  syncFile?: (fd: number) => Promise<void>;
}

const dataSyncFile = promisify(fs.fdatasync);
/** `fs.open` looked up at each call (a test makes it fail). */
const openFile = (file: string, flags: string): Promise<number> =>
  new Promise((resolve, reject) => fs.open(file, flags, (error, fd) => (error ? reject(error) : resolve(fd))));
const closeFile = promisify(fs.close);

/**
 * A Store in one SQLite file, held exclusively for the store's life (`locking_mode = EXCLUSIVE`): two gateways on
 * one file would undo each other's state (one's start-up failing the other's running tasks, one's counter flush
 * rewriting the other's marks), so a second process fails at open, before it reads anything, and no other connection
 * (a sqlite3 shell included) can lock the file while the gateway runs. With the file held, no statement ever meets
 * another connection's lock, so none waits on the event loop. better-sqlite3 is synchronous: a commit writes its pages
 * to the write-ahead log in the OS's cache (~20 µs), and the log is then flushed to the disk off the event loop (fdatasync
 * on libuv's threads), each write's promise resolving once a flush that started after its commit has ended, so that
 * a write has reached the disk when its promise resolves, as with SQLite's `synchronous = FULL`, whose fsync at each
 * commit held the event loop, and every request on it, for 0.3 ms to 50 ms here (a profile of the benchmark caught
 * the credential counters' flush doing so). Writes that come together share a flush (see createGroupSync). Expired
 * rows are never returned, and are deleted when met, at open, and by a sweep at most once a minute on write.
 */
export function createSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  const label = `sqlite store ${path}`;
  const { db, statements } = openDatabase(path, label, options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS);
  let lastPurgeAt = now();
  guard(label, 'purge', () => statements.purgeAll.run(lastPurgeAt));
  const log = createLogSync(path, options.syncFile ?? dataSyncFile);
  /** Resolves once what has been committed so far is on the disk; a failure names the write it was for. */
  const durable = async (operation: string): Promise<void> => {
    try {
      await log.sync();
    } catch (cause) {
      throw new GatewayError('GW_INTERNAL', `${label}: ${operation} failed: the write-ahead log could not be flushed to the disk: ${describe(cause)}`, { cause });
    }
  };

  return {
    async get<T>(namespace: string, key: string, readOptions?: ReadOptions): Promise<T | undefined> {
      return guard(label, `get ${namespace}/${key}`, () => {
        const row = statements.selectOne.get(namespace, key);
        if (!row) return undefined;
        const at = now();
        if (!isLive(row.expiresAt, at)) {
          statements.deleteExpiredOne.run(namespace, key, at);
          return undefined;
        }
        return decodeRead<T>(key, row.value, `${label}, entry ${namespace}/${key}`, readOptions);
      });
    },

    async set<T>(namespace: string, key: string, value: T, options: { ttlMs?: number } = {}): Promise<void> {
      const where = `${label}, entry ${namespace}/${key}`;
      const json = encodeStoreValue(value, where);
      const at = now();
      const expiresAt = toExpiresAt(at, options.ttlMs, where);
      guard(label, `set ${namespace}/${key}`, () => {
        if (at - lastPurgeAt >= PURGE_INTERVAL_MS) {
          statements.purgeAll.run(at);
          lastPurgeAt = at;
        }
        statements.upsert.run(namespace, key, json, expiresAt);
      });
      await durable(`set ${namespace}/${key}`);
    },

    async delete(namespace: string, key: string): Promise<boolean> {
      const deleted = guard(label, `delete ${namespace}/${key}`, () => {
        const row = statements.deleteOne.get(namespace, key);
        return row !== undefined && isLive(row.expiresAt, now());
      });
      await durable(`delete ${namespace}/${key}`);
      return deleted;
    },

    async list<T>(namespace: string, listOptions?: ReadOptions): Promise<Array<{ key: string; value: T }>> {
      const rows = guard(label, `list ${namespace}`, () => {
        const at = now();
        const all = statements.selectNamespace.all(namespace);
        const live = all.filter((row) => isLive(row.expiresAt, at));
        if (live.length < all.length) statements.purgeNamespace.run(namespace, at);
        return live;
      });
      return decodeListed<T>(
        rows.map((row) => ({ key: row.key, json: row.value })),
        (key) => `${label}, entry ${namespace}/${key}`,
        listOptions,
      );
    },

    async close(): Promise<void> {
      // Closing checkpoints the log into the file, flushing both as a checkpoint does, and removes the log: what a
      // flush still running covers is on the disk by then (it ends harmlessly on the removed file).
      const logClosed = log.close();
      if (db.open) guard(label, 'close', () => db.close());
      await logClosed;
    },
  };
}

/**
 * A store file emptied to 0 bytes beside a write-ahead log that is not: the database was truncated while the gateway
 * was stopped (its last writes live in the log), and SQLite would start from an empty store and drop the log without a
 * word, every mark, credential and task gone. An empty file alone is a first start (a file created beforehand).
 */
function refuseTruncatedStore(path: string, label: string): void {
  const size = (file: string): number | undefined => {
    try {
      return fs.statSync(file).size;
    } catch {
      return undefined;
    }
  };
  const wal = size(`${path}-wal`);
  if (size(path) === 0 && wal !== undefined && wal > 0) {
    throw new GatewayError(
      'GW_INTERNAL',
      `${label}: the database file is empty but its write-ahead log (${path}-wal, ${wal} bytes) is not: the file was truncated. ` +
        'Restore it from a backup, or move both files away to start with an empty store',
    );
  }
}

function openDatabase(path: string, label: string, lockWaitMs: number) {
  let db: Database.Database | undefined;
  refuseTruncatedStore(path, label);
  try {
    fs.mkdirSync(nodePath.dirname(path), { recursive: true });
    // The file holds upstream credentials: create it owner-only. SQLite gives its -wal file the database file's
    // permissions.
    fs.closeSync(fs.openSync(path, 'a', 0o600));
    // The busy timeout is how long the lock is waited for, here only: once it is held, nothing waits again. Waiting
    // blocks the thread, which at start-up holds up nothing.
    db = new Database(path, { timeout: lockWaitMs });
    // Set before the first access: the lock is then kept to close, and a WAL file's index lives in this process's
    // memory (no -shm file for another process to share).
    db.pragma('locking_mode = EXCLUSIVE');
    // A write takes the exclusive lock now, rather than at the first write after start-up's reads.
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    db.pragma('journal_mode = WAL');
    // A commit is not flushed by SQLite (NORMAL), but by createLogSync, off the event loop, before its write resolves.
    // A checkpoint still flushes the log and the file itself, as in FULL.
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
    return { db, statements: prepareStatements(db) };
  } catch (cause) {
    db?.close();
    if (isBusy(cause)) {
      throw new GatewayError(
        'GW_INTERNAL',
        `${label}: another gateway process uses this store file (still locked after ${lockWaitMs / 1000} s); run one ` +
          'gateway process per store file: stop the other one, or give this one a store file of its own',
        { cause },
      );
    }
    throw new GatewayError('GW_INTERNAL', `${label}: cannot open the database file: ${describe(cause)}`, { cause });
  }
}

function prepareStatements(db: Database.Database) {
  return {
    selectOne: db.prepare<[string, string], Row>(
      'SELECT value, expires_at AS expiresAt FROM entries WHERE namespace = ? AND key = ?',
    ),
    upsert: db.prepare<[string, string, string, number | null]>(
      `INSERT INTO entries (namespace, key, value, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
    ),
    deleteOne: db.prepare<[string, string], Pick<Row, 'expiresAt'>>(
      'DELETE FROM entries WHERE namespace = ? AND key = ? RETURNING expires_at AS expiresAt',
    ),
    deleteExpiredOne: db.prepare<[string, string, number]>(
      'DELETE FROM entries WHERE namespace = ? AND key = ? AND expires_at <= ?',
    ),
    // BINARY collation: UTF-8 byte order, which the memory driver reproduces with compareKeys.
    selectNamespace: db.prepare<[string], KeyedRow>(
      'SELECT key, value, expires_at AS expiresAt FROM entries WHERE namespace = ? ORDER BY key',
    ),
    purgeNamespace: db.prepare<[string, number]>('DELETE FROM entries WHERE namespace = ? AND expires_at <= ?'),
    purgeAll: db.prepare<[number]>('DELETE FROM entries WHERE expires_at <= ?'),
  };
}

/** SQLITE_BUSY and its extended codes: another connection holds the lock a statement needs. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** Driver errors (I/O, a damaged file, use after close) become GatewayErrors naming the file. */
function guard<R>(label: string, operation: string, run: () => R): R {
  try {
    return run();
  } catch (cause) {
    if (isGatewayError(cause)) throw cause;
    throw new GatewayError('GW_INTERNAL', `${label}: ${operation} failed: ${describe(cause)}`, { cause });
  }
}

/**
 * Flushes the store's write-ahead log to the disk off the event loop (see createSqliteStore). Its descriptor is opened
 * at the first flush, after a commit has created the log; SQLite keeps that file (the same inode) until the database
 * is closed. The folder is flushed too the first time, so that the log's own entry survives a power loss.
 */
function createLogSync(path: string, syncFile: (fd: number) => Promise<void>) {
  let fd: number | undefined;
  let closed: Promise<void> | undefined;
  let last: Promise<void> = Promise.resolve();
  /**
   * The first flush of the log that failed, for good: the kernel may mark the pages it could not write as clean, so a
   * later flush would succeed without them, and the log's chained checksums drop every commit after a lost one at
   * recovery. Every later write fails too (its commit may be lost with them), until a restart.
   */
  let failed: Error | undefined;
  const flush = async (): Promise<void> => {
    if (failed) throw new Error(`an earlier flush failed (${failed.message}); writes since may not reach the disk until the gateway restarts`);
    if (fd === undefined) {
      let opened: number;
      try {
        // Read and write: Windows' flush (FlushFileBuffers) needs a handle that may write.
        opened = await openFile(`${path}-wal`, 'r+');
      } catch (error) {
        // Removed by the store's close, whose checkpoint has flushed what this flush was for. Otherwise (too many open
        // files) this write fails, and the next flush opens it again: nothing unflushed was lost meanwhile.
        if (closed) return;
        throw error;
      }
      if (closed) {
        await closeFile(opened);
        return;
      }
      fd = opened;
      // Windows opens no folder as a file (nor needs it: NTFS journals its entries).
      if (process.platform !== 'win32') await syncFolder(nodePath.dirname(path), syncFile);
    }
    try {
      await syncFile(fd);
    } catch (error) {
      failed ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  };
  const sync = createGroupSync(flush);
  return {
    sync(): Promise<void> {
      const flushed = sync();
      last = flushed.catch(() => undefined);
      return flushed;
    },
    /** Called as the database closes (see the store's close): flushes still running end, then the descriptor is closed. */
    close(): Promise<void> {
      closed ??= (async () => {
        await last;
        if (fd !== undefined) await closeFile(fd);
        fd = undefined;
      })();
      return closed;
    },
  };
}

/**
 * Flushes a folder's entries, as SQLite does for a file it creates, and likewise as far as the file system can: some
 * (network and FUSE ones) refuse to open or flush a folder, which says nothing of the store's own writes.
 */
async function syncFolder(folder: string, syncFile: (fd: number) => Promise<void>): Promise<void> {
  let fd: number;
  try {
    fd = await openFile(folder, 'r');
  } catch {
    return;
  }
  try {
    await syncFile(fd);
  } catch {
    // See above.
  } finally {
    await closeFile(fd);
  }
}
