import type { OutgoingHttpHeaders } from 'node:http';
import { openStream, sendJson } from './http-util';
import type { EarlyEndings } from './scenario';
import type { Exchange } from './types';

/** OpenAI error envelope `{"error":{message,type,param,code}}`, shared by chat, responses and models. */
export interface OpenAiError {
  status: number;
  message: string;
  type: string;
  param: string | null;
  code: string | null;
  retryAfter?: boolean;
}

export const SERVER_ERROR_MESSAGE = 'The server had an error while processing your request. Sorry about that!';

export const MISSING_KEY: OpenAiError = {
  status: 401,
  message:
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
  type: 'invalid_request_error',
  param: null,
  code: null,
};

export const ACCOUNT_SUSPENDED: OpenAiError = {
  status: 401,
  message: 'Your account has been suspended',
  type: 'invalid_request_error',
  param: null,
  code: 'account_deactivated',
};

export const INSUFFICIENT_QUOTA: OpenAiError = {
  status: 429,
  message:
    'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
  type: 'insufficient_quota',
  param: null,
  code: 'insufficient_quota',
};

export function requestsRateLimit(model: string): OpenAiError {
  return {
    status: 429,
    message: `Rate limit reached for requests per min (RPM) on ${model} in organization org-simulator: Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
    type: 'requests',
    param: null,
    code: 'rate_limit_exceeded',
    retryAfter: true,
  };
}

/** The error a `[sim:error=N]` directive answers; bodies follow fixtures/openai-chat where one exists. */
export function statusError(status: number, model: string): OpenAiError {
  switch (status) {
    case 400:
      return {
        status,
        message: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 1 instead.",
        type: 'invalid_request_error',
        param: 'max_output_tokens',
        code: 'integer_below_min_value',
      };
    case 401:
      return {
        status,
        message:
          'Incorrect API key provided: sk-proj-********************************************************************AbCd. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      };
    case 403:
      return { status, message: `Project does not have access to model ${model}`, type: 'invalid_request_error', param: null, code: 'model_not_found' };
    case 404:
      return notFound(model);
    case 429:
      return {
        status,
        message: `Rate limit reached for ${model} in organization org-Ab12Cd34Ef56Gh78Ij90Kl12 on tokens per min (TPM): Limit 200000, Used 199620, Requested 1250. Please try again in 261ms. Visit https://platform.openai.com/account/rate-limits to learn more.`,
        type: 'tokens',
        param: null,
        code: 'rate_limit_exceeded',
        retryAfter: true,
      };
    case 503:
    case 529:
      return { status, message: 'The engine is currently overloaded, please try again later.', type: 'server_error', param: null, code: null };
    default:
      return status >= 500
        ? { status, message: SERVER_ERROR_MESSAGE, type: 'server_error', param: null, code: null }
        : { status, message: `Simulated error ${status}`, type: 'invalid_request_error', param: null, code: null };
  }
}

export function notFound(model: string): OpenAiError {
  return {
    status: 404,
    message: `The model \`${model}\` does not exist or you do not have access to it.`,
    type: 'invalid_request_error',
    param: null,
    code: 'model_not_found',
  };
}

export function missingParameter(name: string): OpenAiError {
  return { status: 400, message: `Missing required parameter: '${name}'.`, type: 'invalid_request_error', param: name, code: 'missing_required_parameter' };
}

export function errorEnvelope(error: OpenAiError): { error: { message: string; type: string; param: string | null; code: string | null } } {
  return { error: { message: error.message, type: error.type, param: error.param, code: error.code } };
}

export function sendOpenAiError(exchange: Exchange, error: OpenAiError, headers: OutgoingHttpHeaders = {}): void {
  sendJson(exchange.res, error.status, errorEnvelope(error), error.retryAfter ? { ...headers, 'retry-after': '1' } : headers);
}

/** How the OpenAI endpoints (chat completions and responses) end an exchange early: see planAnswer. */
export function openAiEndings(exchange: Exchange, model: string): EarlyEndings {
  return {
    error: (status) => sendOpenAiError(exchange, statusError(status, model)),
    openStream: () => openStream(exchange.res, 'text/event-stream; charset=utf-8'),
    serverError: () => sendOpenAiError(exchange, { status: 500, message: SERVER_ERROR_MESSAGE, type: 'server_error', param: null, code: null }),
  };
}
