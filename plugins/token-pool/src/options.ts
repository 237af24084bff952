/** A pool token's subscription type: `-max` models and `premiumModels` need a `premium` token. */
export type TokenTier = 'basic' | 'premium';

/** One regex per line (a string with newlines) or one per entry; empty means the built-in defaults. */
export type PatternList = string | string[];

/** Options of a token-pool platform, beside the base keys every platform has (plugin, baseUrl, timeouts, models). */
export interface TokenPoolOptions {
  /** How many tokens are in the rotation set at a time (spec 8). */
  rotation: number;
  /** Account tokens, sent upstream as `Authorization: Bearer <token>`; `tier` defaults to `basic`. */
  tokens: Array<{ token: string; tier?: TokenTier }>;
  /** Upstream error texts that mean "this token reached a limit" (spec 7). */
  limitPatterns?: PatternList;
  /** Upstream error texts that mean "this token is broken" (invalid, expired, suspended, banned). */
  anomalyPatterns?: PatternList;
  /** Models only a premium token may serve, besides any `-max` model. */
  premiumModels?: string[];
  /** How long a limit-marked token is skipped when the upstream gives no reset hint. Default 3600. */
  cooldownSeconds?: number;
  /** Upper bound on upstream calls for one client request. Default 3. */
  maxAttempts?: number;
  /** Fields merged into the upstream body for `-thinking` models. Default `{ "reasoning_effort": "high" }`. */
  thinking?: Record<string, unknown>;
}

export const TOKEN_POOL_DEFAULTS = {
  cooldownSeconds: 3600,
  maxAttempts: 3,
  thinking: { reasoning_effort: 'high' },
} as const;

const patternList = {
  oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
} as const;

export const tokenPoolOptionsSchema = {
  type: 'object',
  required: ['rotation', 'tokens'],
  properties: {
    rotation: { type: 'integer', minimum: 1 },
    tokens: {
      type: 'array',
      items: {
        type: 'object',
        required: ['token'],
        additionalProperties: false,
        properties: {
          token: { type: 'string', minLength: 1 },
          tier: { enum: ['basic', 'premium'] },
        },
      },
    },
    limitPatterns: patternList,
    anomalyPatterns: patternList,
    premiumModels: { type: 'array', items: { type: 'string', minLength: 1 } },
    cooldownSeconds: { type: 'number', exclusiveMinimum: 0 },
    maxAttempts: { type: 'integer', minimum: 1 },
    thinking: { type: 'object' },
  },
} as const;
