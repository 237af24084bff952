import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config/load-config';
import { createGateway } from './gateway';
import { describeStartupFailure } from './describe-startup-failure';
import { createLogger } from './logging';
import { staleBuildReason } from './source-stamp';

const USAGE = `Usage: npm start -- [--config <file>]   (or: node dist/core/cli.js [--config <file>])

  -c, --config <file>  the config file (default: GATEWAY_CONFIG, else gateway.config.{ts,js,json,yaml} in the
                       current directory)
  -h, --help           this text

Environment: GATEWAY_CONFIG, PORT, HOST, GATEWAY_LICENSES, GATEWAY_ADMIN_KEYS (see README.md, "Configuration").
SIGTERM or SIGINT shuts down gracefully; a second one ends the grace period.
`;

/** `npm start`: load the config, start the gateway, shut down gracefully on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: false });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  // Run from the build (dist/core/cli.js), not from a build that no longer matches the sources beside it.
  const stale = __filename.endsWith('.js') ? staleBuildReason(path.resolve(__dirname, '..'), path.resolve(__dirname, '../..')) : undefined;
  if (stale) throw new ConfigError(stale);
  const { config, warnings } = await loadConfig({ file: values.config });
  const gateway = await createGateway(config).catch((error: unknown) => {
    // A plugin's options are checked here: an option "required" though the file sets it is an unset variable's doing.
    if (error instanceof ConfigError && warnings.length > 0) throw new ConfigError(`${error.message} (${warnings.join('; ')})`);
    throw error;
  });
  const log = gateway.runtime.log;
  for (const warning of warnings) log.warn('config', { warning });
  const { url } = await gateway.listen();
  // The store as opened (a relative path is the config file's folder): where the state an operator backs up lives.
  const store = config.store.driver === 'sqlite' ? config.store.path : 'memory (nothing survives a restart)';
  log.info('gateway listening', { url, config: config.source, store, platforms: [...gateway.runtime.platforms.keys()] });

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      // A second signal: the operator will not wait out the grace period. Open answers end now (their format's
      // error event); state is still written before the process exits.
      log.warn('second signal: ending the grace period now', { signal });
      void gateway.close(0);
      return;
    }
    stopping = true;
    log.info('shutting down', { signal, graceMs: config.server.shutdownGraceMs });
    gateway.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error('shutdown failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // A closed terminal (or a reload habit) sends SIGHUP, whose default is to die at once, streams and state unwritten.
  process.on('SIGHUP', () => stop('SIGHUP'));
}

process.on('unhandledRejection', (reason) => {
  createLogger({ level: 'error' }).error('unhandled rejection', { reason: String(reason) });
});

main().catch((error: unknown) => {
  process.stderr.write(`${describeStartupFailure(error)}\n`);
  process.exit(1);
});
