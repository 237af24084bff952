import type { IncomingHttpHeaders } from 'node:http';
import type { EndpointId } from '../hooks/endpoints';
import type { ModelDialect } from './model-card';

/**
 * Which dialect a models request wants. `/v1beta/models` is Gemini's own path. `/v1/models` is shared by three
 * SDKs, told apart by what each always sends: the Anthropic SDK `anthropic-version`, the Google SDK its
 * `x-goog-api-client` tag or its key header (`x-goog-api-key`, `?key=`); anything else is an OpenAI client.
 */
export function modelDialect(endpoint: EndpointId, headers: IncomingHttpHeaders, query: Readonly<Record<string, string>>): ModelDialect {
  if (endpoint === 'gemini.models' || endpoint === 'gemini.models.get') return 'gemini';
  return sdkDialect(headers, query);
}

/** Which official SDK sent a request on a path the three share, by what each always sends (see modelDialect). */
export function sdkDialect(headers: IncomingHttpHeaders, query: Readonly<Record<string, unknown>>): ModelDialect {
  if (headers['anthropic-version'] !== undefined) return 'messages';
  if (headers['x-goog-api-client'] !== undefined || headers['x-goog-api-key'] !== undefined || query.key !== undefined) return 'gemini';
  return 'openai';
}
