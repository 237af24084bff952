import { ERROR_CODES, type ErrorCode } from './codes';

const GATEWAY_ERROR_MARK = Symbol.for('gateway.error');

export interface GatewayErrorOptions {
  /** HTTP status; defaults to the code's catalog status. Upstream errors keep the upstream status. */
  status?: number;
  cause?: unknown;
  /** The request field at fault, e.g. `messages[2].content[0]`. */
  param?: string;
  /** Milliseconds the client should wait before retrying (429/503). */
  retryAfterMs?: number;
  /** The upstream's own error type (`rate_limit_error`, `RESOURCE_EXHAUSTED`…), kept for same-family clients. */
  upstreamType?: string;
  /** The upstream's own error code string, where it had one (`invalid_api_key`). */
  upstreamCode?: string;
  /** Machine-readable details a client SDK acts on (Anthropic's `error.details`, such as `{ error_code }`). */
  details?: Record<string, unknown>;
  /** No retry can succeed until an operator acts (every credential out of service): SDKs are told not to retry. */
  final?: boolean;
}

/** The one error type that crosses module boundaries. Test with `isGatewayError`, not `instanceof`. */
export class GatewayError extends Error {
  readonly [GATEWAY_ERROR_MARK] = true;
  readonly code: ErrorCode;
  readonly status: number;
  readonly param?: string;
  readonly retryAfterMs?: number;
  readonly upstreamType?: string;
  readonly upstreamCode?: string;
  readonly details?: Record<string, unknown>;
  readonly final?: boolean;

  constructor(code: ErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code].status;
    this.param = options.param;
    this.retryAfterMs = options.retryAfterMs;
    this.upstreamType = options.upstreamType;
    this.upstreamCode = options.upstreamCode;
    if (options.details !== undefined) this.details = options.details;
    if (options.final) this.final = true;
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[GATEWAY_ERROR_MARK] === true;
}

/** Wraps anything thrown into a GatewayError; unknown errors become GW_INTERNAL with a neutral message. */
export function toGatewayError(value: unknown): GatewayError {
  if (isGatewayError(value)) return value;
  return new GatewayError('GW_INTERNAL', 'internal gateway error', { cause: value });
}
