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
 * Until when a rate-limited (429) credential should rest: `retry-after` when sent, else the
 * latest `anthropic-ratelimit-*-reset` of an exhausted limit, else the earliest reset still ahead, else `fallbackMs`.
 * @see https://docs.claude.com/en/api/rate-limits#response-headers
 */
export function claudeCooldownUntil(headers: Headers, now: number, fallbackMs: number): number {
  const retryAfter = parseRetryAfter(headers['retry-after']);
  if (retryAfter !== undefined) return now + Math.max(MIN_COOLDOWN_MS, retryAfter);
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
