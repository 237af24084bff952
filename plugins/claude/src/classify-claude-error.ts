import { classifyUpstreamFailure, decodeMessagesError, GatewayError, maskSecretsIn, parseRetryAfter, type UpstreamFailure } from '@gateway/core';
import { claudeCooldownUntil } from './claude-cooldown-until';

function isMessagesErrorBody(json: unknown): json is { type: 'error'; error: { type?: unknown; message?: unknown } } {
  if (typeof json !== 'object' || json === null) return false;
  const body = json as { type?: unknown; error?: unknown };
  return body.type === 'error' && typeof body.error === 'object' && body.error !== null;
}

/**
 * A failed Anthropic answer → the GatewayError the client sees: the upstream's type and message (secrets masked),
 * 429 as GW_RATE_LIMITED with a retry hint from the rate-limit headers, and 529 as GW_UPSTREAM_OVERLOADED with the
 * upstream's `retry-after`, if any.
 * A body that is not an Anthropic envelope (a proxy's page) gets core's generic reading.
 */
export function classifyClaudeError(failure: UpstreamFailure, secrets: Iterable<string>, now: number = Date.now()): GatewayError {
  if (!isMessagesErrorBody(failure.json)) return classifyUpstreamFailure(failure, secrets);
  const decoded = decodeMessagesError(failure.json, failure.status);
  const message = maskSecretsIn(decoded.message, secrets);
  const upstreamType = decoded.upstreamType;
  if (failure.status === 429) {
    const retryAfterMs = claudeCooldownUntil(failure.headers, now, 60_000) - now;
    return new GatewayError('GW_RATE_LIMITED', message, { status: 429, retryAfterMs, upstreamType });
  }
  if (decoded.code === 'GW_UPSTREAM_OVERLOADED') {
    // Only the upstream's own `retry-after`: an overload is momentary, and a wait of our invention (30 s before) held
    // Claude Code, which honours it, for that long on every retry. Its rate-limit resets say nothing of overload.
    const retryAfterMs = parseRetryAfter(failure.headers['retry-after']);
    return new GatewayError('GW_UPSTREAM_OVERLOADED', message, { status: decoded.status, retryAfterMs, upstreamType });
  }
  return new GatewayError(decoded.code, message, { status: decoded.status, upstreamType });
}
