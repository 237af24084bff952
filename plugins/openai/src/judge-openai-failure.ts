import { readCooldownHint, type FailureVerdict, type GatewayError, type UpstreamFailure } from '@gateway/core';

/** How long a rate-limited key rests when the upstream gives no hint. */
export const DEFAULT_COOLDOWN_MS = 60_000;
/** A key whose quota is used up (billing) rests this long unless the upstream says otherwise. */
export const QUOTA_COOLDOWN_MS = 3_600_000;

/** 403 codes that say the key's account, not the request, is refused. */
const ACCOUNT_REFUSED = new Set(['account_deactivated', 'invalid_api_key', 'invalid_organization']);

/**
 * What a failed answer says about the API key that made it (OpenAI's error codes; compatible services mostly share
 * them):
 * - 429 `insufficient_quota`: limit-marked for an hour (or the upstream's hint); any other 429: cooling down for the
 *   upstream's hint (`retry-after`, `x-ratelimit-reset-*`), else a minute; another key is tried;
 * - 402 (a compatible service's "Insufficient Balance", OpenRouter's credits): limit-marked for an hour, as a used-up
 *   quota is; another key is tried;
 * - 401, or a 403 refusing the account (deactivated, invalid key or organization): invalid until an operator resets
 *   it; another key is tried;
 * - anything else (a bad request, an unknown model, 5xx) is not the key's fault: the client gets the error.
 */
export function judgeOpenAiFailure(failure: UpstreamFailure, error: GatewayError, now: number): FailureVerdict {
  const usedUp = failure.status === 402 || (failure.status === 429 && error.upstreamCode === 'insufficient_quota');
  if (usedUp) return { action: 'cooldown', untilMs: now + (readCooldownHint(failure.headers, now) ?? QUOTA_COOLDOWN_MS), state: 'limit_marked' };
  if (failure.status === 429) return { action: 'cooldown', untilMs: now + (readCooldownHint(failure.headers, now) ?? DEFAULT_COOLDOWN_MS) };
  if (failure.status === 401) return { action: 'disable', state: 'invalid' };
  if (failure.status === 403 && error.upstreamCode !== undefined && ACCOUNT_REFUSED.has(error.upstreamCode)) return { action: 'disable', state: 'invalid' };
  return { action: 'fail' };
}
