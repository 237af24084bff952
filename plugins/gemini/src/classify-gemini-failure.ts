import {
  GatewayError,
  classifyUpstreamFailure,
  decodeGeminiError,
  maskSecret,
  maskSecretsIn,
  parseRetryAfter,
  type EndpointId,
  type UpstreamFailure,
} from '@gateway/core';

/** The shape of Google API keys, masked even when they are not one of ours (a client's key echoed back). */
const GOOGLE_API_KEY = /AIza[0-9A-Za-z_-]{35}/g;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The platform's keys, and anything shaped like a Google API key, masked in a text bound for a client. */
export function maskGeminiSecrets(text: string, secrets: readonly string[]): string {
  return maskSecretsIn(text, secrets).replace(GOOGLE_API_KEY, (key) => maskSecret(key));
}

/**
 * A failed Gemini answer (google.rpc.Status `{"error":{code,message,status,details}}`, sometimes wrapped in an
 * array) → GatewayError with the upstream status and message (keys masked): 429 is GW_RATE_LIMITED with
 * `RetryInfo.retryDelay` (else `retry-after`), 503 overloaded, `ErrorInfo.reason` kept as the upstream code.
 * The rpc status name is kept for Gemini clients only; other families get their own error types by status.
 */
export function classifyGeminiFailure(failure: UpstreamFailure, endpoint: EndpointId, secrets: readonly string[]): GatewayError {
  const body = Array.isArray(failure.json) ? failure.json[0] : failure.json;
  if (!isObject(body) || !isObject(body.error)) return classifyUpstreamFailure({ ...failure, text: maskGeminiSecrets(failure.text, secrets) }, secrets);
  const message = typeof body.error.message === 'string' ? maskGeminiSecrets(body.error.message, secrets) : `upstream answered HTTP ${failure.status}`;
  const decoded = decodeGeminiError({ error: { ...body.error, code: typeof body.error.code === 'number' ? body.error.code : failure.status, message } });
  const status = failure.status >= 400 && failure.status <= 599 ? failure.status : decoded.status;
  const code = status === 429 ? 'GW_RATE_LIMITED' : decoded.code;
  return new GatewayError(code, decoded.message, {
    status,
    retryAfterMs: decoded.retryAfterMs ?? parseRetryAfter(failure.headers['retry-after']),
    ...(endpoint.startsWith('gemini.') && decoded.upstreamType ? { upstreamType: decoded.upstreamType } : {}),
    ...(decoded.upstreamCode ? { upstreamCode: decoded.upstreamCode } : {}),
  });
}
