import fs from 'node:fs/promises';
import path from 'node:path';
import { createGateway, loadConfig, type Gateway, type GatewayConfigFile } from '@gateway/core';
import { serveStats } from './process-stats';

/** What the benchmark passes in `BENCH_GATEWAY` (JSON). */
export interface GatewayProcessInput {
  /** The simulator's base URL; each platform gets its vendor's mount below it. */
  simulatorUrl: string;
  logLevel: string;
  license: string;
  /** sqlite file, as in production. */
  storePath: string;
  /** Platforms besides openai whose plugin package exists in this checkout. */
  optional: Array<'claude' | 'gemini'>;
}

/** Child → parent once listening. */
export interface GatewayReady {
  ready: true;
  url: string;
  platforms: string[];
  /** Optional platforms left out, with the reason (their plugin failed to load or to accept the options). */
  skipped: Record<string, string>;
}

const PLATFORMS: Record<'openai' | 'claude' | 'gemini', (simulatorUrl: string) => GatewayConfigFile['platforms'][string]> = {
  openai: (url) => ({ plugin: 'openai', baseUrl: `${url}/openai`, credentials: [{ apiKey: 'sk-bench-openai-0000000000' }] }),
  claude: (url) => ({ plugin: 'claude', baseUrl: `${url}/anthropic`, credentials: [{ apiKey: 'sk-ant-api03-bench-0000000000' }] }),
  gemini: (url) => ({ plugin: 'gemini', baseUrl: `${url}/gemini`, credentials: [{ apiKey: 'AIzaBench000000000000000000' }] }),
};

/**
 * Writes the config as an operator's `gateway.config.ts` and loads it as `npm start` does (loadConfig: cosmiconfig in
 * a child process), so the gateway's memory is that of a deployment.
 */
async function build(input: GatewayProcessInput, keys: Array<keyof typeof PLATFORMS>): Promise<Gateway> {
  const platforms: GatewayConfigFile['platforms'] = {};
  for (const key of keys) platforms[key] = PLATFORMS[key](input.simulatorUrl);
  const file: GatewayConfigFile = {
    licenses: [input.license],
    store: { driver: 'sqlite', path: input.storePath },
    logging: { level: input.logLevel, format: 'json' },
    platforms,
  };
  const configPath = path.join(path.dirname(input.storePath), 'gateway.config.ts');
  await fs.writeFile(configPath, `import type { GatewayConfigFile } from '@gateway/core';\n\nconst config: GatewayConfigFile = ${JSON.stringify(file, null, 2)};\n\nexport default config;\n`);
  const { config } = await loadConfig({ file: configPath });
  return createGateway(config);
}

/** The gateway as an operator runs it (NODE_ENV=production, sqlite store, the given log level), in its own process. */
async function main(): Promise<void> {
  const input = JSON.parse(process.env.BENCH_GATEWAY ?? '') as GatewayProcessInput;
  const skipped: Record<string, string> = {};
  const keys: Array<keyof typeof PLATFORMS> = ['openai'];
  // A plugin another engineer is still building may not load yet: try each one alone and keep those that do.
  for (const key of input.optional) {
    try {
      const probe = await build(input, ['openai', key]);
      await probe.close(0);
      keys.push(key);
    } catch (error) {
      skipped[key] = error instanceof Error ? error.message.split('\n')[0] : String(error);
    }
  }
  const gateway = await build(input, keys);
  const { url } = await gateway.listen(0, '127.0.0.1');
  // As the CLI does: a graceful exit (which also lets `node --cpu-prof` write its profile).
  process.once('SIGTERM', () => void gateway.close(1000).finally(() => process.exit(0)));
  serveStats();
  const ready: GatewayReady = { ready: true, url, platforms: keys, skipped };
  process.send?.(ready);
}

void main().catch((error: unknown) => {
  process.stderr.write(`gateway start-up failed: ${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
