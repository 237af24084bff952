import { GatewayError } from '../../errors/gateway-error';
import { maskSecretsIn } from '../../errors/mask-secret';

/** HTTP status of each Messages `error.type` (Anthropic errors reference). */
const STATUS_BY_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * An upstream Messages error (`{"type":"error","error":{type,message}}`, as a body or an `event: error`
 * payload) → GatewayError keeping the upstream's type and message (secrets masked). Overload (HTTP 529,
 * `overloaded_error`) is GW_UPSTREAM_OVERLOADED with status 503; others are GW_UPSTREAM_ERROR with the
 * HTTP status, or the status the error type stands for when there is none (mid-stream).
 */
export function decodeMessagesError(body: unknown, status?: number): GatewayError {
  const envelope = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const inner = typeof envelope.error === 'object' && envelope.error !== null ? (envelope.error as Record<string, unknown>) : envelope;
  const type = text(inner.type);
  const message = maskSecretsIn(text(inner.message) ?? `upstream error${type ? ` (${type})` : ''}`);
  const resolved = status ?? (type ? STATUS_BY_TYPE[type] : undefined) ?? 502;
  if (type === 'overloaded_error' || resolved === 529) {
    return new GatewayError('GW_UPSTREAM_OVERLOADED', message, { status: 503, upstreamType: type ?? 'overloaded_error' });
  }
  return new GatewayError('GW_UPSTREAM_ERROR', message, { status: resolved, upstreamType: type });
}
