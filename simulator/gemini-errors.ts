import { sendJson } from './http-util';
import type { Exchange } from './types';

/** Gemini error bodies, google.rpc.Status: `{"error":{code,message,status,details?}}`; shapes from fixtures/gemini. */

export type GeminiError = { code: number; message: string; status: string; details?: unknown[] };

export const API_KEY_INVALID: GeminiError = {
  code: 400,
  message: 'API key not valid. Please pass a valid API key.',
  status: 'INVALID_ARGUMENT',
  details: [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'API_KEY_INVALID',
      domain: 'googleapis.com',
      metadata: { service: 'generativelanguage.googleapis.com' },
    },
    { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'API key not valid. Please pass a valid API key.' },
  ],
};

const BAD_FIELD = 'Invalid JSON payload received. Unknown name "max_tokens" at \'generation_config\': Cannot find field.';

/** The retry delay is 1s rather than the fixture's 37s so that tests that honour it stay fast. */
export function resourceExhausted(model: string): GeminiError {
  return {
    code: 429,
    message: `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/rate-limit. \n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: ${model}\nPlease retry in 1s.`,
    status: 'RESOURCE_EXHAUSTED',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [
          {
            quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
            quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
            quotaDimensions: { location: 'global', model },
            quotaValue: '10',
          },
        ],
      },
      { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }] },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' },
    ],
  };
}

export const INTERNAL: GeminiError = {
  code: 500,
  message: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  status: 'INTERNAL',
};

export function statusError(status: number, model: string): GeminiError {
  switch (status) {
    case 400:
      return {
        code: 400,
        message: BAD_FIELD,
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'generation_config', description: BAD_FIELD }] }],
      };
    case 401:
      return { code: 401, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', status: 'UNAUTHENTICATED' };
    case 403:
      return { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' };
    case 404:
      return { code: 404, message: `models/${model} is not found for API version v1beta, or is not supported for generateContent.`, status: 'NOT_FOUND' };
    case 429:
      return resourceExhausted(model);
    case 500:
      return INTERNAL;
    case 503:
    case 529:
      return { code: status, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' };
    case 504:
      return { code: 504, message: 'The request timed out. Please try again.', status: 'DEADLINE_EXCEEDED' };
    default:
      return { code: status, message: `Simulated error ${status}`, status: status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT' };
  }
}

export function sendGeminiError(exchange: Exchange, error: GeminiError): void {
  sendJson(exchange.res, error.code, { error });
}
