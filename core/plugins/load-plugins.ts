import path from 'node:path';
import semver from 'semver';
import type { GatewayConfig, PlatformConfig } from '../config/config-types';
import { ConfigError } from '../config/load-config';
import { CONFIG_DEFAULTS, PLATFORM_BASE_PROPERTIES } from '../config/config-schema';
import type { GatewayHooks } from '../hooks/gateway-hooks';
import { PLUGIN_API_VERSION, type GatewayCleanup, type GatewayPlugin, type GatewaySettings, type PlatformBaseOptions } from '../hooks/plugin-api';
import type { Logger } from '../logging';
import type { Store } from '../store/store';
import type { UpstreamClient } from '../upstream/upstream-client';
import { configAjv, describeConfigErrors } from '../validation/describe-config-errors';
import type { AdminRegistry } from './admin-registry';
import { scopeHooks } from './scope-hooks';
import { shareGatewayPackages } from './share-gateway-packages';

export interface MountedPlatform {
  key: string;
  plugin: GatewayPlugin;
  options: PlatformBaseOptions & Record<string, unknown>;
}

export interface PluginServices {
  log: Logger;
  store: Store;
  upstream: UpstreamClient;
  gateway: GatewaySettings;
  admin: AdminRegistry;
  onClose?(cleanup: GatewayCleanup): void;
  /** Masks the config's secrets in a message (a plugin's set-up failure may quote one). */
  maskSecrets?: (text: string) => string;
  /** PLUGIN_APPLY_TIMEOUT_MS unless told. */
  applyTimeoutMs?: number;
}

/** How long a plugin's `apply` may take (an OAuth exchange at start-up included) before start-up fails naming it. */
export const PLUGIN_APPLY_TIMEOUT_MS = 60_000;

/**
 * A plugin's `apply`, settled: a failure names the platform and the plugin (its message masked), and one that never
 * settles fails after `timeoutMs`. Without the timer nothing kept the process alive: it exited 0,
 * printing nothing, which a supervisor takes for a clean stop.
 */
async function settleApply(applied: Promise<unknown>, key: string, name: string, mask: (text: string) => string, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ConfigError(`platforms.${key} (plugin "${name}"): set-up did not finish within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    await Promise.race([applied, timedOut]);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`platforms.${key} (plugin "${name}"): set-up failed: ${mask(message)}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Loads the plugin package of every `platforms` entry, checks its API version and options, and lets it tap the
 * hooks for its key. Any problem stops start-up with a message naming the platform, the plugin and the field.
 */
export async function loadPlugins(config: GatewayConfig, hooks: GatewayHooks, services: PluginServices): Promise<MountedPlatform[]> {
  const mounted: MountedPlatform[] = [];
  shareGatewayPackages();
  for (const [key, entry] of Object.entries(config.platforms)) {
    const plugin = requirePlugin(entry.plugin, key, path.dirname(config.source), services.maskSecrets ?? ((text) => text));
    checkApiVersion(plugin, key);
    const options = withBaseDefaults(entry);
    validatePluginOptions(plugin, key, options);
    const log = services.log.child({ plugin: plugin.name, platform: key });
    const applied = Promise.resolve().then(() =>
      plugin.apply(scopeHooks(hooks, key, plugin.name), {
        key,
        options,
        log,
        store: services.store,
        upstream: services.upstream,
        gateway: services.gateway,
        admin: services.admin.forPlatform(key),
        onClose: services.onClose,
      }),
    );
    await settleApply(applied, key, plugin.name, services.maskSecrets ?? ((text) => text), services.applyTimeoutMs ?? PLUGIN_APPLY_TIMEOUT_MS);
    mounted.push({ key, plugin, options });
  }
  return mounted;
}

/**
 * `openai` → `@gateway/plugin-openai`, else a package name, else a path relative to the config file. `@gateway/*`
 * names are the gateway's own packages (shareGatewayPackages: the built ones under `npm start`); other packages
 * resolve from the config's folder, where an operator installs them, then from the gateway's install.
 */
function requirePlugin(name: string, key: string, configDir: string, mask: (text: string) => string): GatewayPlugin {
  const candidates = name.startsWith('.') || path.isAbsolute(name) ? [path.resolve(configDir, name)] : [`@gateway/plugin-${name}`, name];
  for (const candidate of candidates) {
    let resolved: string;
    try {
      resolved = require.resolve(candidate, { paths: [configDir, __dirname] });
    } catch {
      continue;
    }
    let loaded: unknown;
    try {
      loaded = require(resolved);
    } catch (error) {
      const hint = resolved.endsWith('.ts') && !('.ts' in require.extensions) ? typeScriptHint(resolved) : '';
      throw new ConfigError(`platforms.${key}.plugin: "${name}" (${resolved}) failed to load: ${mask(describeLoadError(error))}${hint}`);
    }
    const plugin = (loaded as { default?: unknown }).default ?? loaded;
    if (!isPlugin(plugin)) throw new ConfigError(`platforms.${key}.plugin: "${name}" (${resolved}) does not export a gateway plugin`);
    return plugin;
  }
  throw new ConfigError(`platforms.${key}.plugin: unknown plugin "${name}" (tried ${candidates.join(', ')})`);
}

/** What to do about a plugin given as TypeScript: one already in plugins/<name> is built, and named by its name. */
export function typeScriptHint(resolved: string): string {
  const built = /[\\/]plugins[\\/]([^\\/]+)[\\/]src[\\/]/.exec(resolved)?.[1];
  if (built) return ` (a TypeScript file: the build compiles plugins/${built}; give it by its name, "plugin": "${built}")`;
  return ' (a TypeScript file: put the plugin in plugins/<name> so the build compiles it, or point at its JavaScript)';
}

/**
 * What went wrong loading a plugin's module, in one line, with where: a syntax error's file and line (the first line
 * of its stack; the lines after it quote the source), tsx's first error after its "Transform failed" heading.
 */
export function describeLoadError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const lines = error.message.split('\n');
  const message = /^Transform failed with \d+ errors?:$/.test(lines[0]) && lines[1] ? lines[1] : lines[0];
  const at = error instanceof SyntaxError ? error.stack?.split('\n')[0] : undefined;
  return at && /:\d+$/.test(at) && !message.includes(at) ? `${message} (at ${at})` : message;
}

function isPlugin(value: unknown): value is GatewayPlugin {
  const candidate = value as Partial<GatewayPlugin> | undefined;
  return typeof candidate?.name === 'string' && typeof candidate.apply === 'function' && typeof candidate.apiVersion === 'string';
}

/** The plugin's `apiVersion` is a semver range (`^1.0`, `~1.0.0`, `>=1.0.0`, `1.x`) the core's version must satisfy. */
function checkApiVersion(plugin: GatewayPlugin, key: string): void {
  // An empty range reads as "any version" to semver: a plugin must say which API it was written for.
  if (plugin.apiVersion.trim() === '' || !semver.satisfies(PLUGIN_API_VERSION, plugin.apiVersion)) {
    throw new ConfigError(`platforms.${key}: plugin "${plugin.name}" needs plugin API ${plugin.apiVersion}, core provides ${PLUGIN_API_VERSION}`);
  }
}

function withBaseDefaults(entry: PlatformConfig): PlatformBaseOptions & Record<string, unknown> {
  return {
    ...entry,
    baseUrl: entry.baseUrl.replace(/\/+$/, ''),
    timeouts: { ...CONFIG_DEFAULTS.timeouts, ...entry.timeouts },
  };
}

function validatePluginOptions(plugin: GatewayPlugin, key: string, options: Record<string, unknown>): void {
  if (!plugin.optionsSchema) return;
  const validate = configAjv.compile(withBaseProperties(plugin.optionsSchema));
  if (!validate(options)) {
    const { message } = describeConfigErrors(validate.errors, 'options');
    throw new ConfigError(`platforms.${key} (plugin "${plugin.name}"): ${message}`);
  }
  const unknown = unknownOptions(plugin.optionsSchema, options);
  if (unknown !== undefined) throw new ConfigError(`platforms.${key}.${unknown}: is not a known field of plugin "${plugin.name}"`);
}

/**
 * The plugin's schema with core's own keys (`plugin`, `baseUrl`, `timeouts`, `models`: core checked them) declared as
 * well, where the schema lists properties and does not declare them itself: an ordinary strict schema
 * (`additionalProperties: false` over the plugin's keys) failed start-up blaming `plugin`.
 */
function withBaseProperties(schema: object): object {
  // One copy per plugin schema: ajv knows a schema by its object (and refuses a second one with the same `$id`), so a
  // plugin mounted on two platforms, or by a second gateway in the process, compiles its schema once.
  const { properties } = schema as { properties?: Record<string, unknown> };
  if (properties === undefined) return schema;
  let widened = widenedSchemas.get(schema);
  if (widened === undefined) {
    const base = Object.fromEntries(Object.keys(PLATFORM_BASE_PROPERTIES).filter((name) => !Object.hasOwn(properties, name)).map((name) => [name, true]));
    widened = { ...schema, properties: { ...base, ...properties } };
    widenedSchemas.set(schema, widened);
  }
  return widened;
}

const widenedSchemas = new WeakMap<object, object>();

const COMPOSING_KEYWORDS = ['patternProperties', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'dependentSchemas', 'dependencies', '$ref', 'unevaluatedProperties'];

/**
 * The first key of a platform block that neither core's base keys nor the plugin's schema declare: a misspelt
 * option (`timeout` for `timeouts`) would otherwise start the platform on defaults without a word. A schema that
 * declares no properties, or allows others, lets anything through.
 */
function unknownOptions(schema: object, options: Record<string, unknown>): string | undefined {
  const { properties, additionalProperties } = schema as { properties?: Record<string, unknown>; additionalProperties?: unknown };
  if (properties === undefined || (additionalProperties !== undefined && additionalProperties !== false)) return undefined;
  // Keys a schema may declare elsewhere (patterns, combinators, conditionals, references) are the plugin's to judge.
  if (COMPOSING_KEYWORDS.some((keyword) => keyword in schema)) return undefined;
  return Object.keys(options).find((name) => !(name in PLATFORM_BASE_PROPERTIES) && !Object.hasOwn(properties, name));
}
