import type { UnifiedOutputPart, UnifiedResponse } from '../../unified/unified-response';
import { createCallIdAllocator } from './create-call-id-allocator';
import { decodeGeminiError } from './decode-gemini-error';
import { decodeGrounding, groundingSearch } from './decode-grounding';
import { decodeGeminiPart } from './decode-gemini-part';
import { isGeminiErrorBody } from './is-gemini-error-body';
import { decodeGeminiUsage } from './decode-gemini-usage';
import { geminiTurnFailure, mapGeminiFinishReason } from './map-gemini-finish-reason';
import { responseCallIdPrefix } from './response-call-id-prefix';
import { validateResponse } from './response-schema';
import { synthesizeResponseId } from './synthesize-response-id';

/**
 * RFC 3339 `createTime` (Vertex) → Unix seconds. The Developer API sends no timestamp, so the time of
 * decoding stands in (clients of other formats show `created`), as the other codecs do.
 */
export function decodeCreateTime(createTime: string | undefined): number {
  const ms = createTime === undefined ? Number.NaN : Date.parse(createTime);
  return Math.floor((Number.isNaN(ms) ? Date.now() : ms) / 1000);
}

/**
 * Gemini `GenerateContentResponse` → unified, from the first candidate. A blocked prompt (no
 * candidates, `promptFeedback.blockReason`) is an empty `content_filter` answer. An error envelope
 * in a 200 body, or a failed turn (`MALFORMED_FUNCTION_CALL` …), throws it as a GatewayError; an unreadable body is
 * GW_UPSTREAM_BAD_RESPONSE.
 */
export function decodeResponse(body: unknown): UnifiedResponse {
  if (isGeminiErrorBody(body)) throw decodeGeminiError(body);
  const response = validateResponse(body);
  const candidate = response.candidates?.[0];
  const failure = geminiTurnFailure(candidate?.finishReason, candidate?.finishMessage);
  if (failure) throw failure;
  const id = response.responseId ?? synthesizeResponseId(JSON.stringify(body));
  const givenIds = (candidate?.content?.parts ?? []).flatMap((p) => (p.functionCall?.id ? [p.functionCall.id] : []));
  const nextId = createCallIdAllocator(givenIds, responseCallIdPrefix(id));
  const content: UnifiedOutputPart[] = (candidate?.content?.parts ?? []).flatMap((part) => decodeGeminiPart(part, nextId) ?? []);
  const hasToolCalls = content.some((p) => p.type === 'tool_call');
  // No candidate: a blocked prompt (`promptFeedback.blockReason`), or an answer that says nothing.
  const noCandidateReason = response.promptFeedback?.blockReason !== undefined ? 'content_filter' : 'other';
  const text = content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const grounding = decodeGrounding(candidate?.groundingMetadata, text);
  const citations = grounding.citations;
  const search = groundingSearch(grounding, `ws_${id}`);
  return {
    id,
    model: response.modelVersion ?? '',
    created: decodeCreateTime(response.createTime),
    content,
    ...(citations.length > 0 ? { citations } : {}),
    ...(search ? { webSearches: [search] } : {}),
    finishReason: candidate === undefined ? noCandidateReason : mapGeminiFinishReason(candidate.finishReason, hasToolCalls),
    usage: decodeGeminiUsage(response.usageMetadata),
  };
}
