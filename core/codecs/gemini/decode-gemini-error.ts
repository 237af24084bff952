import { GatewayError } from '../../errors/gateway-error';
import { maskSecretsIn } from '../../errors/mask-secret';
import { isPlainObject } from '../shared/is-plain-object';
import type { GeminiErrorBody } from './gemini-types';

/** `"37s"` / `"1.5s"` → milliseconds. */
function parseDelay(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/**
 * A Gemini error envelope (a 200 body or a stream chunk) → GatewayError: GW_UPSTREAM_OVERLOADED for
 * 503 `UNAVAILABLE`, else GW_UPSTREAM_ERROR, with the upstream's status, message (secrets masked),
 * `status` name, `ErrorInfo.reason` and `RetryInfo.retryDelay`.
 */
export function decodeGeminiError(body: GeminiErrorBody): GatewayError {
  if (typeof body.error === 'string') return new GatewayError('GW_UPSTREAM_ERROR', maskSecretsIn(body.error || 'upstream error'), { status: 502 });
  const { code, message, status } = body.error;
  const details = Array.isArray(body.error.details) ? body.error.details.filter(isPlainObject) : [];
  const httpStatus = typeof code === 'number' && code >= 400 && code <= 599 ? code : 502;
  const overloaded = httpStatus === 503 || status === 'UNAVAILABLE';
  const reason = details.find((d) => typeof d.reason === 'string')?.reason;
  const retryAfterMs = parseDelay(details.find((d) => d.retryDelay !== undefined)?.retryDelay);
  return new GatewayError(overloaded ? 'GW_UPSTREAM_OVERLOADED' : 'GW_UPSTREAM_ERROR', maskSecretsIn(message ?? 'upstream error'), {
    status: httpStatus,
    ...(typeof status === 'string' ? { upstreamType: status } : {}),
    ...(typeof reason === 'string' ? { upstreamCode: reason } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}
