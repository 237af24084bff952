import type { StoreConfig } from '../store/store';
import type { GatewaySettings } from '../hooks/plugin-api';

/** One entry under `platforms`: the plugin to load plus its options (plugin-specific keys validated by the plugin). */
export interface PlatformConfig {
  plugin: string;
  baseUrl: string;
  timeouts?: { connectMs?: number; totalMs?: number; idleMs?: number };
  models?: string[];
  [option: string]: unknown;
}

/** The operator's file (DECISIONS §3) as written, before defaults. */
export interface GatewayConfigFile {
  server?: { host?: string; port?: number; shutdownGraceMs?: number; publicBaseUrl?: string };
  licenses?: string[];
  adminKeys?: string[];
  store?: StoreConfig;
  media?: Partial<GatewaySettings['media']>;
  limits?: Partial<GatewaySettings['limits']>;
  logging?: { level?: string; format?: 'json' | 'pretty' };
  platforms: Record<string, PlatformConfig>;
}

/** The config after validation, env resolution and defaults: what the rest of core reads. */
export interface GatewayConfig {
  server: { host: string; port: number; shutdownGraceMs: number; publicBaseUrl?: string };
  licenses: string[];
  adminKeys: string[];
  store: StoreConfig;
  media: GatewaySettings['media'];
  limits: GatewaySettings['limits'];
  logging: { level: string; format: 'json' | 'pretty' };
  platforms: Record<string, PlatformConfig>;
  /** Where the config came from, for messages. */
  source: string;
}
