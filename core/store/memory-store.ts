import { GatewayError } from '../errors/gateway-error';
import type { ReadOptions, Store } from './store';
import {
  PURGE_INTERVAL_MS,
  compareKeys,
  decodeListed,
  decodeRead,
  encodeStoreValue,
  isLive,
  toExpiresAt,
} from './store-entry';

interface MemoryEntry {
  json: string;
  expiresAt: number | null;
}

/**
 * A Store that lives and dies with the process: tests, and the `memory` driver. Values are kept as
 * JSON so it behaves exactly like the sqlite driver. Expired entries are dropped when met and by an
 * occasional sweep on write; no timer keeps the process alive.
 * `now` is the clock, replaceable in tests.
 */
export function createMemoryStore(now: () => number = Date.now): Store {
  const namespaces = new Map<string, Map<string, MemoryEntry>>();
  let closed = false;
  let lastPurgeAt = now();

  function open(namespace: string): Map<string, MemoryEntry> | undefined {
    if (closed) throw new GatewayError('GW_INTERNAL', 'memory store: used after close');
    return namespaces.get(namespace);
  }

  function purgeExpired(at: number): void {
    for (const [namespace, entries] of namespaces) {
      for (const [key, entry] of entries) if (!isLive(entry.expiresAt, at)) entries.delete(key);
      if (entries.size === 0) namespaces.delete(namespace);
    }
    lastPurgeAt = at;
  }

  return {
    async get<T>(namespace: string, key: string, options?: ReadOptions): Promise<T | undefined> {
      const entries = open(namespace);
      const entry = entries?.get(key);
      if (!entries || !entry) return undefined;
      if (!isLive(entry.expiresAt, now())) {
        entries.delete(key);
        return undefined;
      }
      return decodeRead<T>(key, entry.json, `memory store ${namespace}/${key}`, options);
    },

    async set<T>(namespace: string, key: string, value: T, options: { ttlMs?: number } = {}): Promise<void> {
      let entries = open(namespace);
      const where = `memory store ${namespace}/${key}`;
      const json = encodeStoreValue(value, where);
      const at = now();
      const expiresAt = toExpiresAt(at, options.ttlMs, where);
      if (at - lastPurgeAt >= PURGE_INTERVAL_MS) purgeExpired(at);
      if (!entries) {
        entries = new Map();
        namespaces.set(namespace, entries);
      }
      entries.set(key, { json, expiresAt });
    },

    async delete(namespace: string, key: string): Promise<boolean> {
      const entry = open(namespace)?.get(key);
      if (!entry) return false;
      namespaces.get(namespace)?.delete(key);
      return isLive(entry.expiresAt, now());
    },

    async list<T>(namespace: string, options?: ReadOptions): Promise<Array<{ key: string; value: T }>> {
      const entries = open(namespace);
      if (!entries) return [];
      const at = now();
      const live: Array<{ key: string; json: string }> = [];
      for (const [key, entry] of entries) {
        if (isLive(entry.expiresAt, at)) live.push({ key, json: entry.json });
        else entries.delete(key);
      }
      live.sort((a, b) => compareKeys(a.key, b.key));
      return decodeListed<T>(live, (key) => `memory store ${namespace}/${key}`, options);
    },

    async close(): Promise<void> {
      closed = true;
      namespaces.clear();
    },
  };
}
