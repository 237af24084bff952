import type { UpstreamTimeouts } from '@gateway/core';

/**
 * Ceilings of the OAuth calls. Requests wait for an exchange or an expired token's refresh, so a stalled claude.ai
 * or token endpoint must fail (and the request move to another credential) long before a generation call's total
 * timeout (600 s by default) would end it. A healthy exchange takes a few hundred milliseconds per call.
 */
const OAUTH_LIMITS: Readonly<UpstreamTimeouts> = Object.freeze({ connectMs: 10_000, totalMs: 15_000, idleMs: 15_000 });

/** Node's timer range: anything above means "no timeout" to the upstream client. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The timeouts of the OAuth calls: the platform's own, capped at 10 s to connect and 15 s in all (one budget for the
 * three calls of a session-key exchange; each refresh gets its own). A disabled platform timeout (0) gets the cap.
 */
export function boundOAuthTimeouts(platform: UpstreamTimeouts): UpstreamTimeouts {
  return {
    connectMs: capped(platform.connectMs, OAUTH_LIMITS.connectMs),
    totalMs: capped(platform.totalMs, OAUTH_LIMITS.totalMs),
    idleMs: capped(platform.idleMs, OAUTH_LIMITS.idleMs),
  };
}

function capped(ms: number, limit: number): number {
  return ms > 0 && ms <= MAX_TIMER_MS ? Math.min(ms, limit) : limit;
}
