import type { GatewayError } from '../../errors/gateway-error';
import type { ErrorBody } from '../codec';
import type { WireEvent } from '../../sse/wire-event';

/** OpenAI `error.type` by HTTP status, as the official SDKs and the API use them. */
function openAiErrorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'invalid_request_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return status === 503 ? 'service_unavailable_error' : 'server_error';
  return 'invalid_request_error';
}

/** `{"error":{"message","type","param","code"}}`, the envelope of every OpenAI-family endpoint. */
export function encodeOpenAiError(error: GatewayError): ErrorBody {
  return {
    status: error.status,
    body: {
      error: {
        message: error.message,
        type: error.upstreamType ?? openAiErrorType(error.status),
        param: error.param ?? null,
        code: error.upstreamCode ?? (error.status === 401 ? 'invalid_api_key' : error.code.toLowerCase()),
      },
    },
  };
}

/** Chat streams report a late error as a data-only event carrying the same envelope (no [DONE] after it). */
export function encodeOpenAiStreamError(error: GatewayError): WireEvent[] {
  return [{ data: JSON.stringify(encodeOpenAiError(error).body) }];
}
