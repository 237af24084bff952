import type { GatewayError } from '../../errors/gateway-error';
import type { ErrorBody } from '../codec';
import type { WireEvent } from '../../sse/wire-event';
import { isContextOverflow, overflowSizes } from './is-context-overflow';

/** The Messages types a server-side failure may carry; any of them fits any 5xx. */
const SERVER_ERROR_TYPES = new Set(['api_error', 'timeout_error', 'overloaded_error']);

/** Messages-family `error.type` the status (or, for a 5xx, the gateway code) stands for (Anthropic errors reference). */
function messagesTypeForStatus(error: GatewayError): string {
  if (error.status >= 500) {
    if (error.code === 'GW_UPSTREAM_OVERLOADED' || error.status === 529) return 'overloaded_error';
    return error.status === 504 ? 'timeout_error' : 'api_error';
  }
  switch (error.status) {
    case 401: return 'authentication_error';
    case 402: return 'billing_error';
    case 403: return 'permission_error';
    case 404: return 'not_found_error';
    case 413: return 'request_too_large';
    case 429: return 'rate_limit_error';
    default: return 'invalid_request_error';
  }
}

/**
 * The upstream's type is kept only where it names the same failure as the status: OpenAI labels 401, 403 and
 * 404 `invalid_request_error`, which an Anthropic client would misread. A Claude upstream's own type always
 * fits its status, so it passes through unchanged.
 */
function messagesErrorType(error: GatewayError): string {
  const byStatus = messagesTypeForStatus(error);
  const upstream = error.upstreamType;
  if (upstream === byStatus) return upstream;
  if (upstream !== undefined && error.status >= 500 && SERVER_ERROR_TYPES.has(upstream)) return upstream;
  // Anthropic's own names for client errors with no type of their status (a 408, a 409): only Claude sends them.
  if (upstream !== undefined && byStatus === 'invalid_request_error' && OTHER_CLIENT_ERROR_TYPES.has(upstream)) return upstream;
  return byStatus;
}

const OTHER_CLIENT_ERROR_TYPES = new Set(['timeout_error', 'conflict_error', 'memory_precondition_failed_error', 'memory_path_conflict_error']);

/**
 * The message, worded as Anthropic words an overflow when another upstream said so, for Claude Code acts on the
 * words: an input that fits but leaves no room for `max_tokens` is "input length and `max_tokens` exceed context
 * limit: A + B > C" (it retries with less `max_tokens`); a conversation too long is "prompt is too long" (it offers
 * to compact).
 */
function messagesMessage(error: GatewayError): string {
  if (!isContextOverflow(error) || /prompt is too long|exceed context limit/i.test(error.message)) return error.message;
  const sizes = overflowSizes(error.message);
  if (sizes && sizes.input < sizes.limit) {
    return `input length and \`max_tokens\` exceed context limit: ${sizes.input} + ${sizes.output} > ${sizes.limit}, decrease input length or \`max_tokens\` and try again`;
  }
  return `prompt is too long: ${error.message}`;
}

/**
 * An overload's status to a Messages client: Anthropic's own 529, whatever the upstream said (a Gemini 503
 * UNAVAILABLE, an OpenAI-compatible 503): the SDK raises its OverloadedError for it, and Claude Code tells an overload
 * from an outage by it. Other families keep the 503 (theirs has no 529).
 */
function messagesStatus(error: GatewayError): number {
  return error.code === 'GW_UPSTREAM_OVERLOADED' && error.status === 503 ? 529 : error.status;
}

/** `{"type":"error","error":{"type","message"}}`, with `details` where the error has them. */
export function encodeMessagesError(error: GatewayError): ErrorBody {
  const body = { type: messagesErrorType(error), message: messagesMessage(error), ...(error.details ? { details: error.details } : {}) };
  return { status: messagesStatus(error), body: { type: 'error', error: body } };
}

/** `event: error` after a stream started; nothing follows it (no message_stop). */
export function encodeMessagesStreamError(error: GatewayError): WireEvent[] {
  return [{ event: 'error', data: JSON.stringify(encodeMessagesError(error).body) }];
}
