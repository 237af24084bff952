import { GatewayError } from '../../errors/gateway-error';

/**
 * The resource name of a client's model: `models/{id}` (a bare id goes there) or `tunedModels/{id}`. Anything else
 * is a 400: the model is the client's, and a `..` segment or another collection would let it choose which upstream
 * path the operator's key is sent to.
 */
export function geminiModelName(model: string): string {
  const name = model.includes('/') ? model : `models/${model}`;
  // No backslash either: URL parsing reads it as a slash, so the path sent would not be the model checked.
  const match = /^(models|tunedModels)\/([^/\\]+)$/.exec(name);
  if (!match || match[2] === '.' || match[2] === '..') {
    throw new GatewayError('GW_INVALID_REQUEST', `model: "${model}" is not a Gemini model name (an id, models/{id} or tunedModels/{id})`, { param: 'model' });
  }
  return name;
}

/** `/{apiVersion}/models/{id}:{method}` for a client's model, the id encoded. */
export function geminiMethodPath(model: string, method: string, apiVersion = 'v1beta'): string {
  const [collection, id] = geminiModelName(model).split('/');
  let encoded: string;
  try {
    encoded = encodeURIComponent(id);
  } catch {
    // A lone surrogate cannot be put in a URL at all.
    throw new GatewayError('GW_INVALID_REQUEST', `model: "${model}" is not a Gemini model name (it cannot be put in a URL)`, { param: 'model' });
  }
  return `/${apiVersion}/${collection}/${encoded}:${method}`;
}

/**
 * The upstream path of a generation call: the model goes in the path, not in the body.
 * Streams the gateway requests itself are always SSE (`alt=sse`), as the official SDKs do.
 */
export function geminiModelPath(model: string, stream: boolean, apiVersion = 'v1beta'): string {
  return geminiMethodPath(model, stream ? 'streamGenerateContent?alt=sse' : 'generateContent', apiVersion);
}
