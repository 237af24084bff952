import type { GatewayConfig } from '../config/config-types';
import type { SecretMasker } from '../errors/mask-gateway-error';
import type { GatewayHooks } from '../hooks/gateway-hooks';
import type { GatewaySettings } from '../hooks/plugin-api';
import type { Logger } from '../logging';
import type { MountedPlatform } from '../plugins/load-plugins';
import type { Store } from '../store/store';
import type { UpstreamClient } from '../upstream/upstream-client';
import type { BodyReaders } from './read-body';
import type { AdminRegistry } from '../plugins/admin-registry';

/** Everything a request handler needs, built once at start-up. */
export interface GatewayRuntime {
  config: GatewayConfig;
  settings: GatewaySettings;
  hooks: GatewayHooks;
  platforms: ReadonlyMap<string, MountedPlatform>;
  store: Store;
  upstream: UpstreamClient;
  log: Logger;
  bodies: BodyReaders;
  admin: AdminRegistry;
  isAdminKey(presented: string | undefined): boolean;
  /** Masks every configured secret in a text bound for a client (error messages). */
  maskSecrets: SecretMasker;
}
