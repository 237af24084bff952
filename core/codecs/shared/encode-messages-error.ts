import type { GatewayError } from '../../errors/gateway-error';
import type { ErrorBody } from '../codec';
import type { WireEvent } from '../../sse/wire-event';

const MESSAGES_ERROR_TYPES = new Set([
  'invalid_request_error', 'authentication_error', 'billing_error', 'permission_error', 'not_found_error',
  'request_too_large', 'rate_limit_error', 'api_error', 'timeout_error', 'overloaded_error',
]);

/** Messages-family `error.type` by HTTP status (Anthropic errors reference). */
function messagesErrorType(error: GatewayError): string {
  if (error.upstreamType && MESSAGES_ERROR_TYPES.has(error.upstreamType)) return error.upstreamType;
  if (error.code === 'GW_UPSTREAM_OVERLOADED') return 'overloaded_error';
  switch (error.status) {
    case 401: return 'authentication_error';
    case 402: return 'billing_error';
    case 403: return 'permission_error';
    case 404: return 'not_found_error';
    case 413: return 'request_too_large';
    case 429: return 'rate_limit_error';
    case 504: return 'timeout_error';
    case 529: return 'overloaded_error';
    default: return error.status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** `{"type":"error","error":{"type","message"}}`. */
export function encodeMessagesError(error: GatewayError): ErrorBody {
  return { status: error.status, body: { type: 'error', error: { type: messagesErrorType(error), message: error.message } } };
}

/** `event: error` after a stream started; nothing follows it (no message_stop). */
export function encodeMessagesStreamError(error: GatewayError): WireEvent[] {
  return [{ event: 'error', data: JSON.stringify(encodeMessagesError(error).body) }];
}
