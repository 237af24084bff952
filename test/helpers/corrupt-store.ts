import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteStore } from '../../core/store/sqlite-store';
import type { Store } from '../../core/store/store';

export interface CorruptStore {
  store: Store;
  /** The database file, for a gateway started on it. */
  file: string;
  /** Closes the store and removes its folder. */
  remove(): Promise<void>;
}

/**
 * A sqlite store file whose given entries hold text that is not JSON (a damaged file, a hand edit), beside what
 * `entries` also sets readable. `open: false` leaves the file closed, for a gateway to open.
 */
export async function createCorruptStore(
  corrupt: Array<[namespace: string, key: string]>,
  readable: Array<[namespace: string, key: string, value: unknown]> = [],
  { open = true } = {},
): Promise<CorruptStore> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-corrupt-store-'));
  const file = path.join(dir, 'gateway.db');
  const writer = createSqliteStore(file);
  for (const [namespace, key] of corrupt) await writer.set(namespace, key, {});
  for (const [namespace, key, value] of readable) await writer.set(namespace, key, value);
  await writer.close();
  const db = new Database(file);
  const damage = db.prepare("UPDATE entries SET value = '{not json' WHERE namespace = ? AND key = ?");
  for (const [namespace, key] of corrupt) damage.run(namespace, key);
  db.close();
  const store = open ? createSqliteStore(file) : undefined;
  return {
    get store() {
      if (!store) throw new Error('createCorruptStore: opened with open: false');
      return store;
    },
    file,
    async remove() {
      await store?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
