import type { ReadOptions, Store } from './store';

/**
 * Store writes that must hold for as long as the process lives, made after something that cannot be undone (a video
 * created and paid for upstream): a write that fails (a full disk, a busy file) is kept in memory, answered from there,
 * and tried again at each later read of its key and every few seconds until the store takes it. Only a restart
 * before that loses it.
 */
export interface HeldWrites {
  /** Writes `value`; a failure is returned (the value then stays held), never thrown. */
  set<T>(namespace: string, key: string, value: T, options?: { ttlMs?: number }): Promise<Error | undefined>;
  /** A held value first (its write tried again), else the store's. */
  get<T>(namespace: string, key: string, options?: ReadOptions): Promise<T | undefined>;
}

export interface HeldWritesOptions {
  now?: () => number;
  /** How long after a failed write all held ones are tried again. */
  retryMs?: number;
}

interface HeldWrite {
  namespace: string;
  key: string;
  value: unknown;
  /** The time (ms) past which the entry is gone, held or stored; a retry writes what is left of its time. */
  expiresAt: number;
}

const RETRY_MS = 5_000;

export function createHeldWrites(store: Store, options: HeldWritesOptions = {}): HeldWrites {
  const now = options.now ?? Date.now;
  const retryMs = options.retryMs ?? RETRY_MS;
  /** The newest value of each key whose write the store has not confirmed. */
  const held = new Map<string, HeldWrite>();
  const idOf = (namespace: string, key: string): string => JSON.stringify([namespace, key]);
  let retryTimer: NodeJS.Timeout | undefined;

  async function write(entry: HeldWrite): Promise<Error | undefined> {
    const id = idOf(entry.namespace, entry.key);
    try {
      const ttlMs = entry.expiresAt === Infinity ? undefined : Math.max(1, entry.expiresAt - now());
      await store.set(entry.namespace, entry.key, entry.value, ttlMs === undefined ? {} : { ttlMs });
      // A later set of the same key may have replaced the entry while this write ran: that one stays held.
      if (held.get(id) === entry) held.delete(id);
      return undefined;
    } catch (error) {
      // Unref'd: a retry never holds the process open; a store closed at shutdown fails it like any other.
      if (held.get(id) === entry) retryTimer ??= setTimeout(() => void retryAll(), retryMs).unref();
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  async function retryAll(): Promise<void> {
    retryTimer = undefined;
    for (const [id, entry] of [...held]) {
      if (held.get(id) !== entry) continue;
      if (entry.expiresAt <= now()) held.delete(id);
      else await write(entry);
    }
  }

  return {
    set(namespace, key, value, setOptions = {}) {
      const entry: HeldWrite = { namespace, key, value, expiresAt: setOptions.ttlMs === undefined ? Infinity : now() + setOptions.ttlMs };
      // Held until the store has it: the newest value is the one answered, during its write and after one that failed.
      held.set(idOf(namespace, key), entry);
      return write(entry);
    },

    async get<T>(namespace: string, key: string, readOptions?: ReadOptions): Promise<T | undefined> {
      const id = idOf(namespace, key);
      const entry = held.get(id);
      if (entry !== undefined && entry.expiresAt <= now()) held.delete(id);
      else if (entry !== undefined) {
        await write(entry);
        return entry.value as T;
      }
      return store.get<T>(namespace, key, readOptions);
    },
  };
}
