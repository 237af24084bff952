import type { RequestEcho } from '../../unified/unified-request';
import type { UnifiedResponse } from '../../unified/unified-response';
import { encodeGeminiFinishReason, MALFORMED_FUNCTION_CALL } from './encode-gemini-finish-reason';
import { encodeGeminiUsage } from './encode-gemini-usage';
import { encodeGrounding } from './encode-grounding';
import { encodeOutputParts } from './encode-output-parts';
import type { GeminiGenerateContentResponse } from './gemini-types';
import { clientFunctionNames } from '../shared/portable-function-names';
import { showsThoughts } from './shows-thoughts';

/** Unified → the `GenerateContentResponse` a Gemini client parses (one candidate, index 0). */
export function encodeResponse(response: UnifiedResponse, request: RequestEcho): GeminiGenerateContentResponse {
  const { parts, malformed } = encodeOutputParts(response.content, showsThoughts(request), clientFunctionNames(request));
  const finishReason = malformed ? MALFORMED_FUNCTION_CALL : encodeGeminiFinishReason(response.finishReason);
  const text = response.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const grounding = encodeGrounding(text, response.citations ?? [], response.webSearches ?? []);
  return {
    // An answer with nothing to show still has a part, as the stream encoder gives it: the SDK's chat drops a turn
    // without parts (isValidContent), and with it the client's own message before it, from the history it resends.
    candidates: [{ content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] }, finishReason, index: 0, ...(grounding ? { groundingMetadata: grounding } : {}) }],
    usageMetadata: encodeGeminiUsage(response.usage),
    modelVersion: response.model,
    responseId: response.id,
  };
}
