import axios from 'axios';
import { GatewayError, isGatewayError } from '../errors/gateway-error';

/** Connection errors that mean the upstream could not be reached or dropped us. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** Axios or Node rejected the request we built (bad URL, bad header): a gateway bug, not an upstream fault. */
const REQUEST_BUILD_ERROR_CODES = new Set([
  'ERR_BAD_REQUEST',
  'ERR_BAD_OPTION_VALUE',
  'ERR_INVALID_URL',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_INVALID_ARG_TYPE',
  'ERR_UNESCAPED_CHARACTERS',
]);

/**
 * Maps a transport failure to a GatewayError. `target` is `host:port` only; the message never holds
 * headers, paths or query strings, which may carry credentials.
 */
export function classifyUpstreamError(err: unknown, target: string, phase: 'request' | 'body'): GatewayError {
  if (isGatewayError(err)) return err;
  const code = errorCode(err);
  const cause = safeCause(code);
  if (code === 'ETIMEDOUT') return new GatewayError('GW_UPSTREAM_TIMEOUT', `upstream ${target} timed out (ETIMEDOUT)`, { cause });
  if (phase === 'request') {
    if (code !== undefined && REQUEST_BUILD_ERROR_CODES.has(code)) {
      return new GatewayError('GW_INTERNAL', `invalid upstream request to ${target} (${code})`, { cause });
    }
    return new GatewayError('GW_UPSTREAM_UNREACHABLE', `upstream ${target} unreachable (${code ?? 'unknown error'})`, { cause });
  }
  if (code === undefined || NETWORK_ERROR_CODES.has(code)) {
    return new GatewayError('GW_UPSTREAM_UNREACHABLE', `upstream ${target} connection lost while reading the body (${code ?? 'aborted'})`, { cause });
  }
  // zlib / brotli errors: the upstream sent a body we cannot decode.
  return new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream ${target} body could not be decoded (${code})`, { cause });
}

function codeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('code' in value)) return undefined;
  return typeof value.code === 'string' ? value.code : undefined;
}

/** axios wraps the Node error and keeps it as `cause`: prefer the Node code (ECONNREFUSED over ERR_NETWORK). */
function errorCode(err: unknown): string | undefined {
  return (axios.isAxiosError(err) ? codeOf(err.cause) : undefined) ?? codeOf(err);
}

/**
 * Only the code survives: axios errors hold the request config (headers, credentials) and some Node
 * messages hold the URL, so neither the original error nor its message becomes the cause.
 */
function safeCause(code: string | undefined): Error {
  return Object.assign(new Error(code ?? 'unknown error'), { code });
}
