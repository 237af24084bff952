import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tapLicenseAuth } from './auth/tap-license-auth';
import { createKeyChecker } from './auth/create-key-checker';
import { collectSecrets } from './config/collect-secrets';
import type { GatewayConfig } from './config/config-types';
import { createSecretMasker } from './errors/mask-gateway-error';
import { createGatewayHooks } from './hooks/gateway-hooks';
import type { GatewayCleanup, GatewaySettings } from './hooks/plugin-api';
import { createApp, createHttpServer } from './http/create-app';
import type { GatewayRuntime } from './http/gateway-runtime';
import { createBodyReaders } from './http/read-body';
import { createLogger, type Logger } from './logging';
import { loadPlugins } from './plugins/load-plugins';
import { createAdminRegistry } from './plugins/admin-registry';
import { createStore } from './store';
import { createUpstreamClient } from './upstream/upstream-client';

export interface Gateway {
  runtime: GatewayRuntime;
  server: http.Server;
  /** Starts listening; resolves with the bound address (port 0 picks a free port). */
  listen(port?: number, host?: string): Promise<{ url: string; port: number }>;
  /**
   * Stops accepting, lets open requests finish up to `graceMs`, then closes plugins, store and sockets. Called again
   * while closing, it answers the same promise; with `graceMs` 0 it ends the grace period at once (a second signal).
   */
  close(graceMs?: number): Promise<void>;
}

/** How long answers whose upstream was cut at the end of the shutdown grace period get to write their last event. */
const SHUTDOWN_CUT_MS = 250;

export interface CreateGatewayOptions {
  log?: Logger;
  /** How long a plugin's set-up may take (PLUGIN_APPLY_TIMEOUT_MS unless told; tests shorten it). */
  pluginApplyTimeoutMs?: number;
}

/** Builds the whole gateway from a validated config: store, hooks, plugins, Express app and HTTP server. */
export async function createGateway(config: GatewayConfig, options: CreateGatewayOptions = {}): Promise<Gateway> {
  const secrets = collectSecrets(config);
  const log = options.log ?? createProcessLogger(config, secrets);
  // A rolling restart's new process waits for the old one to let go of the store file: its grace period and a margin.
  const store = createStore(config.store, { lockWaitMs: config.server.shutdownGraceMs + 5_000 });
  const upstream = createUpstreamClient();
  const hooks = createGatewayHooks();
  const maskSecrets = createSecretMasker(secrets);
  const settings: GatewaySettings = { media: config.media, limits: config.limits, publicBaseUrl: config.server.publicBaseUrl, maskSecrets };
  if (config.licenses.length === 0) log.warn('no licenses configured: every platform request will answer 401', { source: config.source });
  tapLicenseAuth(hooks, config.licenses);

  const admin = createAdminRegistry();
  const cleanups: GatewayCleanup[] = [];
  const onClose = (cleanup: GatewayCleanup): void => {
    cleanups.push(cleanup);
  };
  let mounted: Awaited<ReturnType<typeof loadPlugins>>;
  try {
    mounted = await loadPlugins(config, hooks, { log, store, upstream, gateway: settings, admin, onClose, maskSecrets, applyTimeoutMs: options.pluginApplyTimeoutMs });
  } catch (error) {
    // The platforms mounted before the one that failed undo what they started (timers, task runners), with no grace:
    // nothing was served. Then the store, which holds its file exclusively, lets go of it (a process may try again).
    const nothingToWaitFor = { graceOver: Promise.resolve() };
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup(nothingToWaitFor);
      } catch (cleanupError) {
        log.error('clean-up after a failed start-up failed', { error: String((cleanupError as Error)?.message ?? cleanupError) });
      }
    }
    upstream.close();
    await store.close().catch(() => undefined);
    throw error;
  }
  const runtime: GatewayRuntime = {
    config,
    settings,
    hooks,
    platforms: new Map(mounted.map((platform) => [platform.key, platform])),
    store,
    upstream,
    log,
    bodies: createBodyReaders(config.limits),
    admin,
    isAdminKey: createKeyChecker(config.adminKeys),
    maskSecrets,
  };
  const server = createHttpServer(createApp(runtime));
  let closing: Promise<void> | undefined;
  /** Ends the shutdown's grace period now (set while it runs). */
  let endGrace: (() => void) | undefined;

  return {
    runtime,
    server,
    listen(port = config.server.port, host = config.server.host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve({ url: `http://${shownHost}:${address.port}`, port: address.port });
        });
      });
    },
    close(graceMs = config.server.shutdownGraceMs) {
      if (closing) {
        if (graceMs === 0) endGrace?.();
        return closing;
      }
      closing = closeGateway(graceMs);
      return closing;
    },
  };

  async function closeGateway(graceMs: number): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections whose last answer ends during the grace period go idle later: close them as they do.
    server.closeIdleConnections();
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    // At the end of the grace period the upstream calls still open are cut first: each answer then ends as a cut
    // upstream makes it end (a stream with its format's error event, and its access line), not as a dropped
    // connection; whatever is left a moment later is closed.
    let last: NodeJS.Timeout | undefined;
    let graceIsOver: () => void = () => undefined;
    const graceOver = new Promise<void>((resolve) => (graceIsOver = resolve));
    const cut = (): void => {
      endGrace = undefined;
      clearTimeout(timer);
      graceIsOver();
      upstream.cutAll('the gateway is shutting down');
      last = setTimeout(() => server.closeAllConnections(), SHUTDOWN_CUT_MS);
    };
    const timer = setTimeout(cut, graceMs);
    endGrace = cut;
    await closed;
    clearInterval(sweep);
    // One step that fails (state the store cannot take even now) must not skip the others, nor the store's close.
    // Background work (async image tasks) keeps what is left of the grace period: the cleanups wait on `graceOver`.
    const shutdown = { graceOver };
    // Last registered, first run, as with any nested set-up: a platform's task runner (made after its credential
    // pool) finishes its calls before the pool's last flush writes what they counted.
    const steps: GatewayCleanup[] = [...cleanups.reverse(), ...mounted.map((platform) => () => platform.plugin.close?.())];
    for (const step of steps) {
      try {
        await step(shutdown);
      } catch (error) {
        log.error('shutdown step failed', { error: String((error as Error)?.message ?? error) });
      }
    }
    endGrace = undefined;
    clearTimeout(timer);
    clearTimeout(last);
    upstream.close();
    await store.close();
  }
}

/** `silent` is the config's way to switch logging off (tests, benchmarks of the bare hot path). */
function createProcessLogger(config: GatewayConfig, secrets: string[]): Logger {
  const silent = config.logging.level === 'silent';
  const log = createLogger({ level: silent ? 'error' : config.logging.level, format: config.logging.format, secrets: () => secrets });
  log.silent = silent;
  return log;
}
