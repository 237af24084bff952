import type { GatewayError } from '../../errors/gateway-error';
import type { ErrorBody } from '../codec';
import type { WireEvent } from '../../sse/wire-event';
import { isContextOverflow } from './is-context-overflow';

/** OpenAI `error.type` by HTTP status, as the official SDKs and the API use them. */
function openAiErrorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'invalid_request_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return status === 503 ? 'service_unavailable_error' : 'server_error';
  return 'invalid_request_error';
}

/**
 * Anthropic Messages types that OpenAI never sends (`invalid_request_error`, `permission_error` and
 * `rate_limit_error` are shared). OpenAI's own list is open-ended (`tokens`, `insufficient_quota`, …), so
 * the foreign names are the ones ruled out.
 */
const MESSAGES_ONLY_TYPES = new Set([
  'authentication_error', 'billing_error', 'not_found_error', 'request_too_large', 'api_error', 'timeout_error',
  'overloaded_error', 'conflict_error', 'memory_precondition_failed_error', 'memory_path_conflict_error',
]);

/**
 * The upstream's type when it is in OpenAI's vocabulary (lowercase snake_case, not Anthropic's), else the type
 * for the status: a Google status name (`INVALID_ARGUMENT`) or `overloaded_error` means nothing to an OpenAI client.
 */
function openAiTypeOf(error: GatewayError): string {
  const upstream = error.upstreamType;
  if (upstream !== undefined && /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(upstream) && !MESSAGES_ONLY_TYPES.has(upstream)) return upstream;
  return openAiErrorType(error.status);
}

/**
 * The upstream's code; for a conversation too long for the model, OpenAI's `context_length_exceeded` whichever
 * upstream said so: Codex reads that code to compact its history and go on.
 */
export function openAiCodeOf(error: GatewayError): string | undefined {
  if (error.upstreamCode !== undefined) return error.upstreamCode;
  if (isContextOverflow(error)) return 'context_length_exceeded';
  return undefined;
}

/** `{"error":{"message","type","param","code"}}`, the envelope of every OpenAI-family endpoint. */
export function encodeOpenAiError(error: GatewayError): ErrorBody {
  return {
    status: error.status,
    body: {
      error: {
        message: error.message,
        type: openAiTypeOf(error),
        param: error.param ?? null,
        code: openAiCodeOf(error) ?? (error.status === 401 ? 'invalid_api_key' : error.code.toLowerCase()),
      },
    },
  };
}

/** Chat streams report a late error as a data-only event carrying the same envelope (no [DONE] after it). */
export function encodeOpenAiStreamError(error: GatewayError): WireEvent[] {
  return [{ data: JSON.stringify(encodeOpenAiError(error).body) }];
}
