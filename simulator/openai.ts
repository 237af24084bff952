import { credentialBehaviour } from './directives';
import { bearerToken, isRecord, safeDecode, sendJson } from './http-util';
import { createChatCompletion } from './openai-chat';
import {
  ACCOUNT_SUSPENDED, INSUFFICIENT_QUOTA, MISSING_KEY, notFound, requestsRateLimit, sendOpenAiError,
} from './openai-errors';
import { createImages, serveImageFile } from './openai-images';
import { createResponse } from './openai-responses';
import { handleOpenAiVideos } from './openai-videos';
import { createWebSearchResponse, hasWebSearchTool } from './openai-web-search';
import type { Exchange } from './types';

/** OpenAI API: `/v1/chat/completions`, `/v1/responses`, `/v1/models`, images, videos; Bearer auth. */

const MODELS = [
  { id: 'gpt-4.1-mini', created: 1744318173 },
  { id: 'gpt-4.1', created: 1744316542 },
  { id: 'gpt-5', created: 1754425777 },
];

function modelObject(model: (typeof MODELS)[number]): Record<string, unknown> {
  return { id: model.id, object: 'model', created: model.created, owned_by: 'system' };
}

export async function handleOpenAi(exchange: Exchange): Promise<void> {
  const { req, method, path, body } = exchange;
  // Like the storage URLs of real image answers, the files need no key.
  if (serveImageFile(exchange)) return;
  const token = bearerToken(req);
  if (!token) return sendOpenAiError(exchange, MISSING_KEY);
  const model = isRecord(body) && typeof body.model === 'string' ? body.model : 'gpt-4.1-mini';
  switch (credentialBehaviour(token)) {
    case 'banned':
      return sendOpenAiError(exchange, ACCOUNT_SUSPENDED);
    case 'quota':
      return sendOpenAiError(exchange, INSUFFICIENT_QUOTA);
    case 'limited':
      return sendOpenAiError(exchange, requestsRateLimit(model));
    default:
      break;
  }

  if (method === 'GET' && path === '/v1/models') {
    return sendJson(exchange.res, 200, { object: 'list', data: MODELS.map(modelObject) });
  }
  const one = /^\/v1\/models\/([^/]+)$/.exec(path);
  if (method === 'GET' && one) {
    const id = safeDecode(one[1]);
    const found = MODELS.find((m) => m.id === id);
    return found ? sendJson(exchange.res, 200, modelObject(found)) : sendOpenAiError(exchange, notFound(id));
  }
  if (method === 'POST' && (path === '/v1/chat/completions' || path === '/v1/responses')) {
    if (!isRecord(body)) {
      return sendOpenAiError(exchange, {
        status: 400,
        message: 'We could not parse the JSON body of your request. (HINT: This likely means you aren\'t using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)',
        type: 'invalid_request_error',
        param: null,
        code: null,
      });
    }
    if (path === '/v1/chat/completions') return createChatCompletion(exchange, body);
    return hasWebSearchTool(body) && body.stream !== true ? createWebSearchResponse(exchange, body) : createResponse(exchange, body);
  }
  if (method === 'POST' && (path === '/v1/images/generations' || path === '/v1/images/edits')) {
    return createImages(exchange, path === '/v1/images/edits');
  }
  if (await handleOpenAiVideos(exchange)) return;
  return sendOpenAiError(exchange, {
    status: 404,
    message: `Invalid URL (${method} ${path})`,
    type: 'invalid_request_error',
    param: null,
    code: null,
  });
}
