/**
 * Durable state the gateway keeps across restarts: credentials and refreshed tokens, token marks,
 * async tasks, thinking signatures. Values are JSON-serialisable. Every write is durable before the
 * returned promise resolves. One gateway process per store: the sqlite driver holds its file for the process's life.
 */
export interface Store {
  get<T>(namespace: string, key: string, options?: ReadOptions): Promise<T | undefined>;
  /** `ttlMs`: the entry disappears (get returns undefined, list skips it) after that long. */
  set<T>(namespace: string, key: string, value: T, options?: { ttlMs?: number }): Promise<void>;
  delete(namespace: string, key: string): Promise<boolean>;
  /** All live entries of a namespace, ordered by key. */
  list<T>(namespace: string, options?: ReadOptions): Promise<Array<{ key: string; value: T }>>;
  close(): Promise<void>;
}

export interface ReadOptions {
  /**
   * Given, an entry whose value cannot be read back (not JSON: a damaged file, a hand edit) is passed here and read
   * as absent, so that one bad row costs that row only; without it, such an entry fails the get or the whole list.
   */
  onUnreadable?: (key: string, error: Error) => void;
}

export type StoreConfig = { driver: 'memory' } | { driver: 'sqlite'; path: string };
