import type { EndpointId } from '../hooks/endpoints';

/** The model and stream mode of a request, from its body or (Gemini native) its path, for routing and logs. */
export function describeRequest(
  endpoint: EndpointId,
  json: Record<string, unknown> | undefined,
  params: Record<string, string>,
): { model?: string; stream: boolean } {
  if (endpoint === 'gemini.generateContent' || endpoint === 'gemini.streamGenerateContent' || endpoint === 'gemini.countTokens') {
    return { model: params.model, stream: endpoint === 'gemini.streamGenerateContent' };
  }
  const model = typeof json?.model === 'string' ? json.model : undefined;
  return { model, stream: json?.stream === true };
}
