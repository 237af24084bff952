/**
 * The upstream path of a generation call: the model goes in the path, not in the body.
 * Streams the gateway requests itself are always SSE (`alt=sse`), as the official SDKs do.
 * `tunedModels/x` style names keep their collection; a bare name goes under `models/`.
 */
export function geminiModelPath(model: string, stream: boolean, apiVersion = 'v1beta'): string {
  const name = model.includes('/') ? model : `models/${model}`;
  const encoded = name.split('/').map(encodeURIComponent).join('/');
  return `/${apiVersion}/${encoded}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}
