import { parseRetryAfter } from '@gateway/core';

type Headers = Record<string, string | string[] | undefined>;

/** The limits Anthropic reports, each with `-limit`, `-remaining` and an RFC 3339 `-reset` header. */
const LIMITS = ['requests', 'tokens', 'input-tokens', 'output-tokens'] as const;

/** Never shorter than this, so a `retry-after: 0` does not send the next request straight back. */
const MIN_COOLDOWN_MS = 1000;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * When a subscription (OAuth) account's usage window opens again: its 429 says `anthropic-ratelimit-unified-status:
 * rejected` with `anthropic-ratelimit-unified-reset` in Unix seconds (hours ahead), and no `retry-after`.
 */
function unifiedReset(headers: Headers, now: number): number | undefined {
  if (header(headers, 'anthropic-ratelimit-unified-status') !== 'rejected') return undefined;
  const seconds = Number(header(headers, 'anthropic-ratelimit-unified-reset'));
  return Number.isFinite(seconds) && seconds * 1000 > now ? seconds * 1000 : undefined;
}

/**
 * Until when a rate-limited (429) credential should rest: `retry-after` when sent, else a subscription's unified
 * reset, else the latest `anthropic-ratelimit-*-reset` of an exhausted limit, else the earliest reset still ahead,
 * else `fallbackMs`.
 * @see https://docs.claude.com/en/api/rate-limits#response-headers
 */
export function claudeCooldownUntil(headers: Headers, now: number, fallbackMs: number): number {
  const retryAfter = parseRetryAfter(headers['retry-after']);
  if (retryAfter !== undefined) return now + Math.max(MIN_COOLDOWN_MS, retryAfter);
  const unified = unifiedReset(headers, now);
  if (unified !== undefined) return Math.max(now + MIN_COOLDOWN_MS, unified);
  const exhausted: number[] = [];
  const ahead: number[] = [];
  for (const limit of LIMITS) {
    const reset = Date.parse(header(headers, `anthropic-ratelimit-${limit}-reset`) ?? '');
    if (Number.isNaN(reset) || reset <= now) continue;
    ahead.push(reset);
    if (header(headers, `anthropic-ratelimit-${limit}-remaining`) === '0') exhausted.push(reset);
  }
  if (exhausted.length > 0) return Math.max(now + MIN_COOLDOWN_MS, ...exhausted);
  if (ahead.length > 0) return Math.max(now + MIN_COOLDOWN_MS, Math.min(...ahead));
  return now + fallbackMs;
}
