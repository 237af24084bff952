import type { UpstreamFailure } from '../hooks/plugin-api';
import { GatewayError } from './gateway-error';
import { maskSecretsIn } from './mask-secret';

/**
 * Core's generic reading of a failed upstream answer, used when no plugin classifier answers. It understands the
 * common envelopes (`{error:{message,type,code}}`, `{error:{message,status}}`, `{type:'error',error:{…}}`,
 * `{message}`) and keeps the upstream status and message, masked.
 */
export function classifyUpstreamFailure(failure: UpstreamFailure, secrets: Iterable<string> = []): GatewayError {
  const envelope = readErrorEnvelope(failure);
  // Every text of the envelope reaches the client: an upstream may quote the key in any of them.
  const mask = (value: string | undefined): string | undefined => (value === undefined ? undefined : maskSecretsIn(value, secrets));
  const text = maskSecretsIn(envelope.message || `upstream answered HTTP ${failure.status}`, secrets);
  const type = mask(envelope.type);
  const code = mask(envelope.code);
  const param = mask(envelope.param);
  const retryAfterMs = parseRetryAfter(failure.headers['retry-after']);
  if (failure.status === 429) {
    return new GatewayError('GW_RATE_LIMITED', text, { status: 429, retryAfterMs, param, upstreamType: type, upstreamCode: code });
  }
  if (failure.status === 529 || failure.status === 503) {
    return new GatewayError('GW_UPSTREAM_OVERLOADED', text, { status: failure.status, retryAfterMs, param, upstreamType: type, upstreamCode: code });
  }
  const status = failure.status >= 400 && failure.status <= 599 ? failure.status : 502;
  return new GatewayError('GW_UPSTREAM_ERROR', text, { status, retryAfterMs, param, upstreamType: type, upstreamCode: code });
}

export function readErrorEnvelope(failure: Pick<UpstreamFailure, 'json' | 'text'>): { message: string; type?: string; code?: string; param?: string } {
  const body = Array.isArray(failure.json) ? failure.json[0] : failure.json;
  if (body && typeof body === 'object') {
    const error = (body as { error?: unknown }).error;
    if (error && typeof error === 'object') {
      const e = error as { message?: unknown; type?: unknown; status?: unknown; code?: unknown; param?: unknown };
      return {
        message: typeof e.message === 'string' ? e.message : '',
        type: typeof e.type === 'string' ? e.type : typeof e.status === 'string' ? e.status : undefined,
        code: typeof e.code === 'string' ? e.code : undefined,
        // The request field at fault (OpenAI's envelope), kept for the client.
        param: typeof e.param === 'string' ? e.param : undefined,
      };
    }
    if (typeof error === 'string') return { message: error };
    const message = (body as { message?: unknown }).message;
    if (typeof message === 'string') return { message };
  }
  return { message: failure.text.slice(0, 500).trim() };
}

/** `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
