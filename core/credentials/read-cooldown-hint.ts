import { parseRetryAfter } from '../errors/classify-upstream-failure';
import type { UpstreamFailure } from '../hooks/plugin-api';

/** `6m0s`, `1h2m3.5s`, `20ms`, `1.5s`: the duration format of OpenAI's `x-ratelimit-reset-*` headers. */
const DURATION = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/;

const RESET_HEADERS = ['x-ratelimit-reset', 'x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens'];

/**
 * How long the upstream says a limited token should rest, in ms from `nowMs`, or undefined without a hint.
 * `retry-after-ms` and `retry-after` are the upstream's direct answer; otherwise the longest of the
 * `x-ratelimit-reset*` headers (durations, seconds, or epoch seconds/ms), so the token is not retried early.
 */
export function readCooldownHint(headers: UpstreamFailure['headers'], nowMs: number): number | undefined {
  const retryAfterMs = Number(first(headers['retry-after-ms']));
  if (first(headers['retry-after-ms']) !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) return retryAfterMs;
  const retryAfter = parseRetryAfter(headers['retry-after']);
  if (retryAfter !== undefined) return retryAfter;
  const resets = RESET_HEADERS.map((name) => parseReset(first(headers[name]), nowMs)).filter((ms): ms is number => ms !== undefined);
  return resets.length > 0 ? Math.max(...resets) : undefined;
}

function first(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

function parseReset(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (Number.isFinite(number)) {
    if (number > 1e12) return Math.max(0, number - nowMs);
    if (number > 1e9) return Math.max(0, number * 1000 - nowMs);
    return Math.max(0, number * 1000);
  }
  const match = DURATION.exec(value);
  if (!match || match[0] === '') return undefined;
  const [hours, minutes, seconds, millis] = match.slice(1).map((part) => Number(part ?? 0));
  return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis;
}
