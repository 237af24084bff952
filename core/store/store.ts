/**
 * Durable state the gateway keeps across restarts: credentials and refreshed tokens, token marks,
 * async tasks, thinking signatures. Values are JSON-serialisable. Every write is durable before the
 * returned promise resolves.
 */
export interface Store {
  get<T>(namespace: string, key: string): Promise<T | undefined>;
  /** `ttlMs`: the entry disappears (get returns undefined, list skips it) after that long. */
  set<T>(namespace: string, key: string, value: T, options?: { ttlMs?: number }): Promise<void>;
  delete(namespace: string, key: string): Promise<boolean>;
  /** All live entries of a namespace, ordered by key. */
  list<T>(namespace: string): Promise<Array<{ key: string; value: T }>>;
  close(): Promise<void>;
}

export type StoreConfig = { driver: 'memory' } | { driver: 'sqlite'; path: string };
