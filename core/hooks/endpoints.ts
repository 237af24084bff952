import type { ErrorFamily } from '../codecs/codec';
import type { WireFormat } from '../unified/unified-request';

/**
 * The gateway's public endpoints under `/{platform}`. Core knows these because the client wire formats are the
 * gateway's public API; which ones a platform serves is the platform's `route` decision.
 */
export type EndpointId =
  | 'chat.completions'
  | 'responses'
  | 'messages'
  | 'messages.count_tokens'
  | 'gemini.generateContent'
  | 'gemini.streamGenerateContent'
  | 'gemini.countTokens'
  | 'models'
  | 'models.get'
  | 'gemini.models'
  | 'gemini.models.get'
  | 'images.generations'
  | 'images.edits'
  | 'images.get'
  | 'videos.create'
  | 'videos.remix'
  | 'videos.get'
  | 'videos.content'
  | 'search';

export interface EndpointSpec {
  id: EndpointId;
  method: 'GET' | 'POST';
  /** Express path below `/:platform`. */
  path: string;
  family: ErrorFamily;
  /** The client wire format of a generation endpoint (decoded by that codec when translating). */
  format?: WireFormat;
  body: 'json' | 'multipart-or-json' | 'none';
}

export const ENDPOINTS: readonly EndpointSpec[] = Object.freeze([
  { id: 'chat.completions', method: 'POST', path: '/v1/chat/completions', family: 'openai', format: 'chat-completions', body: 'json' },
  { id: 'responses', method: 'POST', path: '/v1/responses', family: 'openai', format: 'responses', body: 'json' },
  { id: 'messages', method: 'POST', path: '/v1/messages', family: 'messages', format: 'messages', body: 'json' },
  { id: 'messages.count_tokens', method: 'POST', path: '/v1/messages/count_tokens', family: 'messages', format: 'messages', body: 'json' },
  { id: 'models', method: 'GET', path: '/v1/models', family: 'openai', body: 'none' },
  { id: 'models.get', method: 'GET', path: '/v1/models/*model', family: 'openai', body: 'none' },
  { id: 'gemini.models', method: 'GET', path: '/v1beta/models', family: 'gemini', body: 'none' },
  { id: 'gemini.models.get', method: 'GET', path: '/v1beta/models/*model', family: 'gemini', body: 'none' },
  { id: 'images.generations', method: 'POST', path: '/v1/images/generations', family: 'openai', body: 'multipart-or-json' },
  { id: 'images.edits', method: 'POST', path: '/v1/images/edits', family: 'openai', body: 'multipart-or-json' },
  { id: 'images.get', method: 'GET', path: '/v1/images/:taskId', family: 'openai', body: 'none' },
  { id: 'videos.create', method: 'POST', path: '/v1/videos', family: 'openai', body: 'multipart-or-json' },
  { id: 'videos.remix', method: 'POST', path: '/v1/videos/:taskId/remix', family: 'openai', body: 'multipart-or-json' },
  { id: 'videos.get', method: 'GET', path: '/v1/videos/:taskId', family: 'openai', body: 'none' },
  { id: 'videos.content', method: 'GET', path: '/v1/videos/:taskId/content', family: 'openai', body: 'none' },
  { id: 'search', method: 'POST', path: '/v1/alpha/search', family: 'openai', body: 'json' },
]);

/** The model list and model lookup endpoints, all answered by one handler per platform (createModelsHandler). */
const MODELS_ENDPOINTS: ReadonlySet<EndpointId> = new Set<EndpointId>(['models', 'models.get', 'gemini.models', 'gemini.models.get']);

export function isModelsEndpoint(endpoint: EndpointId): boolean {
  return MODELS_ENDPOINTS.has(endpoint);
}

/** First path segments the gateway answers itself (health, served files, admin): never a platform's. */
export const GATEWAY_ROUTES: readonly string[] = Object.freeze(['admin', 'files', 'healthz']);

/** `/v1beta/models/{model}:{method}` (and `/v1/...`): the Gemini native generation endpoints. */
export const GEMINI_METHODS: Readonly<Record<string, EndpointId>> = Object.freeze({
  generateContent: 'gemini.generateContent',
  streamGenerateContent: 'gemini.streamGenerateContent',
  countTokens: 'gemini.countTokens',
});

/** Which error shape a path's clients parse, for answers given before an endpoint is matched. */
export function errorFamilyForPath(path: string): ErrorFamily {
  if (/\/v1(beta|alpha)?\d*\/models\/[^/]+:/.test(path) || /\/v1(?:beta|alpha)\//.test(path) || /\/tunedModels\//.test(path)) return 'gemini';
  if (/\/v1\/messages(\/|$|\?)/.test(path)) return 'messages';
  return 'openai';
}
