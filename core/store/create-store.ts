import { GatewayError } from '../errors/gateway-error';
import { createMemoryStore } from './memory-store';
import { createSqliteStore } from './sqlite-store';
import type { Store, StoreConfig } from './store';

/** The driver named by the validated `store` section of the config. */
export function createStore(config: StoreConfig): Store {
  switch (config.driver) {
    case 'memory':
      return createMemoryStore();
    case 'sqlite':
      return createSqliteStore(config.path);
    default: {
      // Only reachable from an unvalidated config; never echo the rest of it (a url may hold a password).
      const unsupported: { driver: string } = config;
      throw new GatewayError('GW_INTERNAL', `store: unsupported driver "${unsupported.driver}"`);
    }
  }
}
