import { BASE_URL, TRIMMED_TEXT } from '../validation/compile-validator';

/**
 * A day: the most a wait in milliseconds may be. Node's timers take at most 2^31 - 1 ms and fire at once beyond (a
 * shutdown grace period of 3e9 cut streams after 1 ms), and SQLite's lock wait is the grace period plus 5 s.
 */
const MAX_WAIT_MS = 86_400_000;

/** The keys every platform block has, whatever its plugin; the plugin's own are checked by its optionsSchema. */
export const PLATFORM_BASE_PROPERTIES = {
  plugin: { type: 'string', minLength: 1 },
  baseUrl: { type: 'string', pattern: BASE_URL, format: 'http-url' },
  timeouts: {
    type: 'object',
    additionalProperties: false,
    properties: {
      connectMs: { type: 'integer', minimum: 1 },
      totalMs: { type: 'integer', minimum: 1 },
      idleMs: { type: 'integer', minimum: 1 },
    },
  },
  models: { type: 'array', items: { type: 'string', minLength: 1 } },
} as const;

/** JSON schema of the operator's config file (DECISIONS §3). Plugin-specific platform keys are checked by each plugin. */
export const configSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['platforms'],
  properties: {
    server: {
      type: 'object',
      additionalProperties: false,
      properties: {
        host: { type: 'string', minLength: 1 },
        port: { type: 'integer', minimum: 0, maximum: 65535 },
        shutdownGraceMs: { type: 'integer', minimum: 0, maximum: MAX_WAIT_MS },
        publicBaseUrl: { type: 'string', pattern: '^https?://' },
      },
    },
    // Not blank, and no space at either end (a client's credential is read without it, so it could never match).
    licenses: { type: 'array', items: { type: 'string', pattern: TRIMMED_TEXT } },
    adminKeys: { type: 'array', items: { type: 'string', pattern: TRIMMED_TEXT } },
    store: {
      oneOf: [
        { type: 'object', additionalProperties: false, required: ['driver'], properties: { driver: { const: 'memory' } } },
        {
          type: 'object',
          additionalProperties: false,
          required: ['driver', 'path'],
          properties: { driver: { const: 'sqlite' }, path: { type: 'string', minLength: 1 } },
        },
      ],
    },
    media: {
      type: 'object',
      additionalProperties: false,
      properties: {
        maxBytes: { type: 'integer', minimum: 1 },
        timeoutMs: { type: 'integer', minimum: 1, maximum: MAX_WAIT_MS },
        allowPrivateAddresses: { type: 'boolean' },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: { jsonBodyBytes: { type: 'integer', minimum: 1 }, fileBytes: { type: 'integer', minimum: 1 } },
    },
    logging: {
      type: 'object',
      additionalProperties: false,
      properties: {
        level: { enum: ['error', 'warn', 'info', 'debug', 'silent'] },
        format: { enum: ['json', 'pretty'] },
      },
    },
    platforms: {
      type: 'object',
      propertyNames: { pattern: '^[a-z0-9][a-z0-9_-]*$' },
      additionalProperties: {
        type: 'object',
        required: ['plugin', 'baseUrl'],
        properties: PLATFORM_BASE_PROPERTIES,
      },
    },
  },
} as const;

export const CONFIG_DEFAULTS = {
  server: { host: '127.0.0.1', port: 8080, shutdownGraceMs: 10_000 },
  store: { driver: 'sqlite', path: './data/gateway.db' },
  media: { maxBytes: 20 * 1024 * 1024, timeoutMs: 15_000, allowPrivateAddresses: false },
  limits: { jsonBodyBytes: 25 * 1024 * 1024, fileBytes: 20 * 1024 * 1024 },
  logging: { level: 'info', format: 'json' },
  timeouts: { connectMs: 10_000, totalMs: 600_000, idleMs: 120_000 },
} as const;
