import { format, type Logform } from 'winston';
import { maskSecret, maskSecretsIn } from '../errors/mask-secret';

/**
 * The logger's safety net: secrets should never reach a log call, but if one does, it leaves the
 * process masked. Two rules, applied to every field, however deep:
 * - a key named like a credential (`authorization`, `x-api-key`, `accessToken`, `password`…) has its
 *   whole value masked, whatever it looks like;
 * - in every string, each known secret and each `sk-…` key is replaced by its masked form.
 * Objects owned by the caller are never modified: a changed branch is copied.
 */
export function createRedactFormat(secrets?: () => Iterable<string>): Logform.Format {
  return format((info) => redactEntry(info, secrets ? Array.from(secrets()) : []))();
}

/** The two rules above, applied in place to a log entry's own fields (the entry is the logger's, not the caller's). */
export function redactEntry<T extends Record<string, unknown>>(info: T, secrets: string[]): T {
  const entry: Record<string, unknown> = info;
  for (const key of Object.keys(entry)) {
    const value = entry[key];
    const redacted = isSensitiveKey(key) ? maskValue(value, [entry]) : redactValue(value, secrets, [entry]);
    if (redacted !== value) entry[key] = redacted;
  }
  return info;
}

/**
 * Compared lower-cased without `-` and `_`, by suffix, so `x-goog-api-key`, `refresh_token` and
 * `Proxy-Authorization` match. A trailing `s` is allowed for lists (`apiKeys`), except after
 * `token`: `max_tokens` and `input_tokens` are counts.
 */
const SENSITIVE_KEY = /(?:(?:authorization|cookie|apikey|sessionkey|adminkey|password|secret|license)s?|token)$/;

/** Field names come from code, so they are few: each is classified once (bounded, in case one is not). */
const keyVerdicts = new Map<string, boolean>();
const MAX_KEY_VERDICTS = 2048;

export function isSensitiveKey(key: string): boolean {
  let verdict = keyVerdicts.get(key);
  if (verdict === undefined) {
    verdict = SENSITIVE_KEY.test(key.toLowerCase().replace(/[-_]/g, ''));
    if (keyVerdicts.size < MAX_KEY_VERDICTS) keyVerdicts.set(key, verdict);
  }
  return verdict;
}

/** A credential under a sensitive key: strings keep their scheme and a recognisable tail, the rest goes. */
function maskValue(value: unknown, ancestors: object[]): unknown {
  if (typeof value === 'string') {
    const scheme = /^(bearer|basic|token)\s+(\S.*)$/i.exec(value);
    return scheme ? `${scheme[1]} ${maskSecret(scheme[2])}` : maskSecret(value);
  }
  if (value === null || value === undefined || typeof value === 'boolean') return value;
  if (typeof value !== 'object' || value instanceof Error || hasToJson(value)) return '[redacted]';
  if (ancestors.includes(value)) return '[Circular]';
  const path = [...ancestors, value];
  if (Array.isArray(value)) return value.map((item: unknown) => maskValue(item, path));
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, maskValue(inner, path)]));
}

function redactValue(value: unknown, secrets: string[], ancestors: object[]): unknown {
  if (typeof value === 'string') return maskSecretsIn(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.includes(value)) return '[Circular]';
  const path = [...ancestors, value];
  if (value instanceof Error) return redactValue(describeError(value), secrets, path);
  // JSON semantics: what gets written is what toJSON returns (a URL's query string, for one).
  if (hasToJson(value)) return redactValue(value.toJSON(), secrets, path);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const redacted = redactValue(item, secrets, path);
      if (redacted !== item) (copy ??= [...value])[index] = redacted;
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, inner] of Object.entries(value)) {
    const redacted = isSensitiveKey(key) ? maskValue(inner, path) : redactValue(inner, secrets, path);
    if (redacted !== inner) (copy ??= { ...value })[key] = redacted;
  }
  return copy ?? value;
}

/**
 * JSON.stringify writes an Error as `{}`. Keep what helps an operator, and only primitive own
 * fields: an HTTP client's error carries its request config, credential headers included.
 */
function describeError(error: Error): Record<string, unknown> {
  const described: Record<string, unknown> = { name: error.name, message: error.message };
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') described[key] = value;
  }
  if (error.stack) described.stack = error.stack;
  if (error.cause !== undefined) described.cause = error.cause;
  return described;
}

function hasToJson(value: object): value is { toJSON: () => unknown } {
  return 'toJSON' in value && typeof value.toJSON === 'function';
}
