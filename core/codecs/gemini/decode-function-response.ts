import type { UnifiedMediaPart, UnifiedTextPart } from '../../unified/unified-request';
import type { GeminiFunctionResponse } from './gemini-types';
import { mediaKindFromMime } from '../shared/media-kind-from-mime';

export interface DecodedFunctionResponse {
  content: Array<UnifiedTextPart | UnifiedMediaPart>;
  isError: boolean;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * `functionResponse.response` is an object. A lone `output` / `result` key (the SDK's and the
 * gateway's own wrappers) is unwrapped, a lone `error` key marks the result as an error; any other
 * object is passed on as JSON text. Multimodal `parts` (Gemini 3) become media parts; `path` names the functionResponse
 * in the client's request.
 */
export function decodeFunctionResponse(fr: GeminiFunctionResponse, path: string): DecodedFunctionResponse {
  const response = fr.response ?? {};
  const keys = Object.keys(response);
  const only = keys.length === 1 ? keys[0] : undefined;
  const isError = only === 'error';
  const text = only === 'output' || only === 'result' || only === 'error' ? asText(response[only]) : JSON.stringify(response);
  const content: Array<UnifiedTextPart | UnifiedMediaPart> = [{ type: 'text', text }];
  (fr.parts ?? []).forEach((part, k) => {
    const clientPath = `${path}.parts[${k}]`;
    if (part.inlineData) {
      const { mimeType, data } = part.inlineData;
      content.push({ type: mediaKindFromMime(mimeType), source: { kind: 'base64', mediaType: mimeType, data }, clientPath });
    } else if (part.fileData) {
      content.push({ type: mediaKindFromMime(part.fileData.mimeType ?? ''), source: { kind: 'url', url: part.fileData.fileUri }, clientPath });
    }
  });
  return { content, isError };
}
