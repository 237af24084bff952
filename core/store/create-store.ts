import { GatewayError } from '../errors/gateway-error';
import { createMemoryStore } from './memory-store';
import { createSqliteStore } from './sqlite-store';
import type { Store, StoreConfig } from './store';

export interface CreateStoreOptions {
  /**
   * How long a file store waits at open for another process to let go of it: a few seconds more than the shutdown
   * grace period, so a rolling restart outwaits the old process (default 15 s, see createSqliteStore).
   */
  lockWaitMs?: number;
}

/** The driver named by the validated `store` section of the config. */
export function createStore(config: StoreConfig, options: CreateStoreOptions = {}): Store {
  switch (config.driver) {
    case 'memory':
      return createMemoryStore();
    case 'sqlite':
      return createSqliteStore(config.path, { lockWaitMs: options.lockWaitMs });
    default: {
      // Only reachable from an unvalidated config; never echo the rest of it (a url may hold a password).
      const unsupported: { driver: string } = config;
      throw new GatewayError('GW_INTERNAL', `store: unsupported driver "${unsupported.driver}"`);
    }
  }
}
