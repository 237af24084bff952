import type { FailureVerdict, GatewayError, UpstreamFailure } from '@gateway/core';

/** How long a rate-limited key rests when the upstream gives no retry delay. */
export const DEFAULT_COOLDOWN_MS = 60_000;

/** A 403 about something the request named (a tuned model, file, cache) is the request's fault, not the key's. */
const REQUEST_RESOURCE = /\b(tunedModels|files|cachedContents|corpora|operations)\/|\btuned model\b|\baccess the file\b/i;

/**
 * What a failed answer says about the API key that made it:
 * - 429 `RESOURCE_EXHAUSTED`: cooldown for `RetryInfo.retryDelay` (or `retry-after`, else a minute), then another key;
 * - 400 `API_KEY_INVALID`, 401, 403 `PERMISSION_DENIED` (key blocked, API disabled, leaked key): the key is invalid
 *   until an operator resets it; another key is tried;
 * - anything else (bad request, model not found, 5xx) is not the key's fault: the client gets the error.
 */
export function judgeGeminiFailure(failure: UpstreamFailure, error: GatewayError, now: number): FailureVerdict {
  if (failure.status === 429) return { action: 'cooldown', untilMs: now + (error.retryAfterMs ?? DEFAULT_COOLDOWN_MS) };
  if (failure.status === 400 && (error.upstreamCode === 'API_KEY_INVALID' || /API key not valid/i.test(error.message))) {
    return { action: 'disable', state: 'invalid' };
  }
  if (failure.status === 401) return { action: 'disable', state: 'invalid' };
  if (failure.status === 403 && !REQUEST_RESOURCE.test(error.message)) return { action: 'disable', state: 'invalid' };
  return { action: 'fail' };
}
