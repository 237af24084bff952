import fs from 'node:fs';
import nodePath from 'node:path';
import Database from 'better-sqlite3';
import { GatewayError, isGatewayError } from '../errors/gateway-error';
import type { Store } from './store';
import {
  PURGE_INTERVAL_MS,
  decodeStoreValue,
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
 * How long one statement may wait, synchronously, for another connection's write lock. better-sqlite3 waits on the
 * event loop's thread: its default (5 s) froze every request of the gateway for that long.
 */
const BUSY_WAIT_MS = 20;
/** A write that found the file locked is tried again, off the event loop, for about this long in all. */
const BUSY_RETRY_MS = 2_000;
const BUSY_BACKOFF_MS = [10, 25, 50, 100, 200, 250];

/**
 * A Store in one SQLite file. better-sqlite3 is synchronous, so with `synchronous = FULL` each write
 * has reached the disk when its promise resolves. WAL lets another connection (an admin tool, a
 * second process) read while the gateway writes; a write that meets another connection's write lock is retried
 * with pauses in between (see BUSY_RETRY_MS), never by blocking the process. Expired rows are never returned, and
 * are deleted when met (unless the file is locked then), at open, and by a sweep at most once a minute on write.
 * `now` is the clock, replaceable in tests.
 */
export function createSqliteStore(path: string, now: () => number = Date.now): Store {
  const label = `sqlite store ${path}`;
  const { db, statements } = openDatabase(path, label);
  let lastPurgeAt = now();
  guard(label, 'purge', () => statements.purgeAll.run(lastPurgeAt));
  /**
   * The latest write (set or delete) asked for each entry: a write waiting out a lock gives up once a later one for
   * the same entry exists, which would otherwise be overwritten by the older value when the retry goes through.
   */
  const latestWrite = new Map<string, number>();
  let writes = 0;
  async function writeEntry<R>(namespace: string, key: string, write: () => R, superseded: R): Promise<R> {
    const entry = `${namespace}\u0000${key}`;
    const mine = ++writes;
    latestWrite.set(entry, mine);
    try {
      return await retryWhileBusy(write, () => latestWrite.get(entry) !== mine, superseded);
    } finally {
      if (latestWrite.get(entry) === mine) latestWrite.delete(entry);
    }
  }

  return {
    async get<T>(namespace: string, key: string): Promise<T | undefined> {
      return guard(label, `get ${namespace}/${key}`, () => {
        const row = statements.selectOne.get(namespace, key);
        if (!row) return undefined;
        const at = now();
        if (!isLive(row.expiresAt, at)) {
          unlessBusy(() => statements.deleteExpiredOne.run(namespace, key, at));
          return undefined;
        }
        return decodeStoreValue<T>(row.value, `${label}, entry ${namespace}/${key}`);
      });
    },

    async set<T>(namespace: string, key: string, value: T, options: { ttlMs?: number } = {}): Promise<void> {
      const where = `${label}, entry ${namespace}/${key}`;
      const json = encodeStoreValue(value, where);
      const at = now();
      const expiresAt = toExpiresAt(at, options.ttlMs, where);
      await writeEntry(
        namespace,
        key,
        () =>
          guard(label, `set ${namespace}/${key}`, () => {
            if (at - lastPurgeAt >= PURGE_INTERVAL_MS) {
              unlessBusy(() => statements.purgeAll.run(at));
              lastPurgeAt = at;
            }
            statements.upsert.run(namespace, key, json, expiresAt);
          }),
        undefined,
      );
    },

    async delete(namespace: string, key: string): Promise<boolean> {
      return writeEntry(
        namespace,
        key,
        () =>
          guard(label, `delete ${namespace}/${key}`, () => {
            const row = statements.deleteOne.get(namespace, key);
            return row !== undefined && isLive(row.expiresAt, now());
          }),
        false,
      );
    },

    async list<T>(namespace: string): Promise<Array<{ key: string; value: T }>> {
      return guard(label, `list ${namespace}`, () => {
        const at = now();
        const rows = statements.selectNamespace.all(namespace);
        const live = rows.filter((row) => isLive(row.expiresAt, at));
        if (live.length < rows.length) unlessBusy(() => statements.purgeNamespace.run(namespace, at));
        return live.map((row) => ({
          key: row.key,
          value: decodeStoreValue<T>(row.value, `${label}, entry ${namespace}/${row.key}`),
        }));
      });
    },

    async close(): Promise<void> {
      if (db.open) guard(label, 'close', () => db.close());
    },
  };
}

function openDatabase(path: string, label: string) {
  let db: Database.Database | undefined;
  try {
    fs.mkdirSync(nodePath.dirname(path), { recursive: true });
    // The file holds upstream credentials: create it owner-only. SQLite gives its -wal and -shm
    // files the database file's permissions.
    fs.closeSync(fs.openSync(path, 'a', 0o600));
    db = new Database(path, { timeout: BUSY_WAIT_MS });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(SCHEMA);
    return { db, statements: prepareStatements(db) };
  } catch (cause) {
    db?.close();
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

/** SQLITE_BUSY and its extended codes: another connection holds the lock this statement needs. */
function isBusy(error: unknown): boolean {
  const cause = isGatewayError(error) ? error.cause : error;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `write` until it does not find the file locked, pausing between tries, for BUSY_RETRY_MS at most; answers
 * `superseded` without writing once `isSuperseded` says a later write of the same entry was asked for.
 */
async function retryWhileBusy<R>(write: () => R, isSuperseded: () => boolean, superseded: R): Promise<R> {
  const deadline = Date.now() + BUSY_RETRY_MS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return write();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    }
    const pause = BUSY_BACKOFF_MS[Math.min(attempt, BUSY_BACKOFF_MS.length - 1)];
    await new Promise((resolve) => setTimeout(resolve, pause));
    if (isSuperseded()) return superseded;
  }
}

/** Housekeeping (deleting expired rows) that can wait for another time when the file is locked. */
function unlessBusy(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!isBusy(error)) throw error;
  }
}

/** Driver errors (I/O, a locked or damaged file, use after close) become GatewayErrors naming the file. */
function guard<R>(label: string, operation: string, run: () => R): R {
  try {
    return run();
  } catch (cause) {
    if (isGatewayError(cause)) throw cause;
    throw new GatewayError('GW_INTERNAL', `${label}: ${operation} failed: ${describe(cause)}`, { cause });
  }
}
