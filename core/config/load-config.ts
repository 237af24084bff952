import { maskSecretsIn } from '../errors/mask-secret';
import path from 'node:path';
import { GATEWAY_ROUTES } from '../hooks/endpoints';
import { configAjv, describeConfigErrors } from '../validation/describe-config-errors';
import { CONFIG_DEFAULTS, configSchema } from './config-schema';
import type { GatewayConfig, GatewayConfigFile } from './config-types';
import { readConfigFile, type ConfigFileRead } from './read-config-file';
import { resolveEnvRefs } from './resolve-env-refs';

/** A config problem found at start-up; the message names the file and the field. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface LoadConfigOptions {
  /** Explicit file (`--config`); else `GATEWAY_CONFIG`; else cosmiconfig searches `cwd`. */
  file?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** How long the config file may take to load (default 60 s): one that never settles fails start-up. */
  readTimeoutMs?: number;
}

export interface LoadedConfig {
  config: GatewayConfig;
  /** Non-fatal notes for the start-up log (unset env variables). */
  warnings: string[];
}

const SEARCH_PLACES = [
  'gateway.config.ts',
  'gateway.config.js',
  'gateway.config.cjs',
  'gateway.config.mjs',
  'gateway.config.json',
  'gateway.config.yaml',
  'gateway.config.yml',
];

const validateConfig = configAjv.compile(configSchema);

export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  // The file runs as if in the gateway: what it sets in the environment (dotenv style) holds for the gateway too.
  const env = options.env ? { ...options.env } : process.env;
  const file = options.file ?? env.GATEWAY_CONFIG;
  let read: ConfigFileRead;
  try {
    read = await readConfigFile({ file: file ? path.resolve(cwd, file) : undefined, cwd, searchPlaces: SEARCH_PLACES }, env, options.readTimeoutMs ?? 60_000);
  } catch (error) {
    throw new ConfigError(`cannot read config ${file ?? `in ${cwd}`}: ${withoutQuotedSource((error as Error).message)}`);
  }
  if (!read.found) throw new ConfigError(`no config found: create gateway.config.ts in ${cwd} or pass --config <file>`);
  for (const [name, value] of Object.entries(read.envChanges)) {
    if (value === null) delete env[name];
    else env[name] = value;
  }
  return parseConfig(unwrapDefault(read.found.config), read.found.filepath, env);
}

/** Lines of a parser's code frame (`> 3 |  "apiKey": "sk-…"`, `----^`) and the text a JSON error quotes (`while parsing '…'`). */
const CODE_FRAME_LINE = /^\s*(?:>?\s*\d+\s*\||\|\s*\^|-*\^)/;
const QUOTED_SOURCE = / while parsing '.*$/;
/**
 * V8's own quoting of the text around a JSON error (`Unexpected token 'x', ..."{"apiKey":x"k9Zr"... is not valid JSON`),
 * which may run over a line break of the text it quotes.
 */
const QUOTED_JSON = /, (?:\.\.\.)?"[\s\S]*?"(?:\.\.\.)? is not valid JSON/g;

/** Node's list of requiring files after a module-not-found message, to its end. */
const REQUIRE_STACK = /\n\s*Require stack:(?:\n\s*- .*)*/g;

/**
 * A config file's parse error without the lines of the file it quotes: they hold its credentials. What is left
 * (the error and its line and column) says where to look; well-known key shapes are masked in it too.
 */
export function withoutQuotedSource(message: string): string {
  const lines = message
    // Node's "Require stack:" list of the loader's own files (a temporary copy of the config among them) says nothing
    // an operator can act on: the missing module is named on the line before.
    .replace(REQUIRE_STACK, '')
    .replace(QUOTED_JSON, ' (the text around it is not shown: it may hold a credential)')
    .split('\n')
    .filter((line) => !CODE_FRAME_LINE.test(line))
    .map((line) => line.replace(QUOTED_SOURCE, '').trimEnd())
    .filter((line, i, all) => line !== '' || (i > 0 && all[i - 1] !== ''));
  return maskSecretsIn(lines.join('\n').trim());
}

/** Validates and completes a config object (also used by tests and the demo, which build configs in code). */
export function parseConfig(raw: unknown, source: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const { value, warnings } = resolveEnvRefs(raw, env);
  if (!validateConfig(value)) {
    const { message } = describeConfigErrors(validateConfig.errors, 'config');
    // A field that is missing because its `env:` variable is unset: the variable's name is the useful part.
    const unset = warnings.length > 0 ? ` (${warnings.join('; ')})` : '';
    throw new ConfigError(`invalid config ${source}: ${message}${unset}`);
  }
  const file = value as unknown as GatewayConfigFile;
  const taken = Object.keys(file.platforms).find((key) => GATEWAY_ROUTES.includes(key));
  if (taken !== undefined) {
    throw new ConfigError(`invalid config ${source}: platforms.${taken}: "/${taken}" is a route of the gateway itself (${GATEWAY_ROUTES.join(', ')}); give the platform another key`);
  }
  const licenses = [...(file.licenses ?? []), ...splitList(env.GATEWAY_LICENSES)];
  const adminKeys = [...(file.adminKeys ?? []), ...splitList(env.GATEWAY_ADMIN_KEYS)];
  // A license never opens /admin (DECISIONS §9): a key given as both would. Which key is not said (it is a secret).
  const both = adminKeys.findIndex((key) => licenses.includes(key));
  if (both >= 0) {
    throw new ConfigError(`invalid config ${source}: adminKeys: admin key ${both + 1} is also a license; a license must not open /admin, give each its own key`);
  }
  const server = { ...CONFIG_DEFAULTS.server, ...file.server };
  if (env.PORT) server.port = parsePort(env.PORT);
  if (env.HOST) server.host = env.HOST;
  const config: GatewayConfig = {
    server,
    licenses,
    adminKeys,
    store: file.store ?? { ...CONFIG_DEFAULTS.store },
    media: { ...CONFIG_DEFAULTS.media, ...file.media },
    limits: { ...CONFIG_DEFAULTS.limits, ...file.limits },
    logging: { ...CONFIG_DEFAULTS.logging, ...file.logging },
    platforms: file.platforms,
    source,
  };
  if (config.store.driver === 'sqlite' && !path.isAbsolute(config.store.path)) {
    config.store = { driver: 'sqlite', path: path.resolve(path.dirname(source), config.store.path) };
  }
  return { config, warnings };
}

function unwrapDefault(value: unknown): unknown {
  if (value && typeof value === 'object' && 'default' in value && Object.keys(value).length === 1) {
    return (value as { default: unknown }).default;
  }
  return value;
}

function splitList(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

function parsePort(value: string): number {
  // Number(' ') is 0: a blank PORT would silently listen on a random port.
  const port = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT: must be an integer 0-65535, got "${value}"`);
  return port;
}
