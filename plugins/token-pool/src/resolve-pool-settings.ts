import { ConfigError } from '@gateway/core';
import type { PoolCallSettings } from './call-with-pool-tokens';
import { compilePatterns } from './compile-patterns';
import { DEFAULT_ANOMALY_PATTERNS, DEFAULT_LIMIT_PATTERNS } from './default-patterns';
import { TOKEN_POOL_DEFAULTS, type TokenPoolOptions, type TokenTier } from './options';
import type { PoolRequestSettings } from './to-pool-request';

/** The validated options with defaults applied and patterns compiled: what the rest of the plugin reads. */
export interface PoolSettings extends PoolCallSettings, PoolRequestSettings {
  rotation: number;
  tokens: Array<{ token: string; tier: TokenTier }>;
}

/** Start-up checks the schema cannot express (regexes, duplicate tokens) fail here with the field named. */
export function resolvePoolSettings(key: string, options: TokenPoolOptions): PoolSettings {
  const field = `platforms.${key}`;
  const seen = new Map<string, number>();
  const tokens = options.tokens.map(({ token, tier }, index) => {
    const earlier = seen.get(token);
    if (earlier !== undefined) throw new ConfigError(`${field}.tokens[${index}]: the same token as tokens[${earlier}]`);
    seen.set(token, index);
    return { token, tier: tier ?? 'basic' };
  });
  return {
    rotation: options.rotation,
    tokens,
    patterns: {
      limit: compilePatterns(options.limitPatterns, DEFAULT_LIMIT_PATTERNS, `${field}.limitPatterns`),
      anomaly: compilePatterns(options.anomalyPatterns, DEFAULT_ANOMALY_PATTERNS, `${field}.anomalyPatterns`),
    },
    maxAttempts: options.maxAttempts ?? TOKEN_POOL_DEFAULTS.maxAttempts,
    cooldownMs: (options.cooldownSeconds ?? TOKEN_POOL_DEFAULTS.cooldownSeconds) * 1000,
    secrets: tokens.map(({ token }) => token),
    premiumModels: new Set(options.premiumModels ?? []),
    thinking: options.thinking ?? TOKEN_POOL_DEFAULTS.thinking,
  };
}
