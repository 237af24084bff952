import type { GatewayError } from '../../errors/gateway-error';
import type { ErrorBody } from '../codec';
import type { WireEvent } from '../../sse/wire-event';

/** google.rpc.Code names by HTTP status. */
function rpcStatus(status: number): string {
  switch (status) {
    case 400: case 413: case 415: return 'INVALID_ARGUMENT';
    case 401: return 'UNAUTHENTICATED';
    case 403: return 'PERMISSION_DENIED';
    case 404: return 'NOT_FOUND';
    case 405: return 'UNIMPLEMENTED';
    case 409: return 'ABORTED';
    case 429: return 'RESOURCE_EXHAUSTED';
    case 501: return 'UNIMPLEMENTED';
    case 503: return 'UNAVAILABLE';
    case 504: return 'DEADLINE_EXCEEDED';
    default: return status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
  }
}

/**
 * `{"error":{"code","message","status"}}`; when the gateway knows how long to wait, a `RetryInfo` detail says it
 * (`"retryDelay": "37s"`), where Gemini puts it and Google's clients (Gemini CLI) read it, not in a header.
 */
export function encodeGeminiError(error: GatewayError): ErrorBody {
  const status = error.upstreamType && /^[A-Z_]+$/.test(error.upstreamType) ? error.upstreamType : rpcStatus(error.status);
  const retryDelay = error.retryAfterMs !== undefined && error.status >= 429 ? `${Math.max(1, Math.ceil(error.retryAfterMs / 1000))}s` : undefined;
  const details = retryDelay ? { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }] } : {};
  return { status: error.status, body: { error: { code: error.status, message: error.message, status, ...details } } };
}

/** A late error in a Gemini stream is one more element (or SSE data event) carrying the error envelope. */
export function encodeGeminiStreamError(error: GatewayError): WireEvent[] {
  return [{ data: JSON.stringify(encodeGeminiError(error).body) }];
}
