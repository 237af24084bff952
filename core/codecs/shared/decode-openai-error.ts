import { GatewayError } from '../../errors/gateway-error';
import { maskSecretsIn } from '../../errors/mask-secret';

/** The fields of an OpenAI-family error (`{"error":{…}}` envelope or a Responses `error` event). */
export interface OpenAiErrorFields {
  message?: unknown;
  type?: unknown;
  code?: unknown;
  param?: unknown;
}

const OVERLOADED = new Set(['overloaded_error', 'service_unavailable_error', 'server_is_overloaded', 'slow_down']);

/** HTTP status an OpenAI error type/code stands for (a mid-stream error has no status of its own). */
function statusOf(type: string | undefined, code: string | undefined): number | undefined {
  const keys = [code, type];
  if (keys.some((k) => k !== undefined && OVERLOADED.has(k))) return 503;
  if (code === 'invalid_api_key' || type === 'authentication_error') return 401;
  if (type === 'permission_error') return 403;
  if (type === 'not_found_error' || code === 'model_not_found') return 404;
  if (code === 'rate_limit_exceeded' || code === 'insufficient_quota') return 429;
  if (type === 'rate_limit_error' || type === 'tokens' || type === 'requests' || type === 'insufficient_quota') return 429;
  if (type === 'invalid_request_error' || code === 'context_length_exceeded') return 400;
  if (type === 'server_error' || code === 'server_error') return 500;
  return undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * An upstream OpenAI-family error → GatewayError (GW_UPSTREAM_OVERLOADED or GW_UPSTREAM_ERROR) keeping the
 * upstream's message (secrets masked), type and code. `status` is the HTTP status when there is one.
 */
export function decodeOpenAiError(fields: OpenAiErrorFields, status?: number): GatewayError {
  const type = text(fields.type);
  const code = text(fields.code);
  // OpenRouter's mid-stream errors carry the HTTP status as a numeric `code` (`{"code": 503, "message": …}`).
  const numericCode = typeof fields.code === 'number' && Number.isInteger(fields.code) && fields.code >= 400 && fields.code <= 599 ? fields.code : undefined;
  const resolved = status ?? statusOf(type, code) ?? numericCode ?? 502;
  const message = maskSecretsIn(text(fields.message) ?? `upstream error${type ? ` (${type})` : ''}`);
  const overloaded = resolved === 503 || resolved === 529;
  return new GatewayError(overloaded ? 'GW_UPSTREAM_OVERLOADED' : 'GW_UPSTREAM_ERROR', message, {
    status: resolved,
    param: text(fields.param),
    upstreamType: type,
    upstreamCode: code,
  });
}
