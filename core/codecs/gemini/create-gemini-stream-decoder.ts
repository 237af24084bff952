import { parseToolJson } from '../../text/exact-json-numbers';
import { GatewayError, isGatewayError } from '../../errors/gateway-error';
import type { WireEvent } from '../../sse/wire-event';
import type { UnifiedStreamEvent } from '../../unified/unified-stream-event';
import type { UnifiedUsage } from '../../unified/unified-response';
import type { StreamDecoder } from '../codec';
import { createCallIdAllocator } from './create-call-id-allocator';
import { decodeGeminiError } from './decode-gemini-error';
import { createGroundingCollector, decodeGrounding, groundingSearch } from './decode-grounding';
import { decodeGeminiPart } from './decode-gemini-part';
import { isGeminiErrorBody } from './is-gemini-error-body';
import { decodeGeminiUsage } from './decode-gemini-usage';
import { decodeCreateTime } from './decode-response';
import { geminiTurnFailure, mapGeminiFinishReason } from './map-gemini-finish-reason';
import { responseCallIdPrefix } from './response-call-id-prefix';
import { validateResponse } from './response-schema';
import { synthesizeResponseId } from './synthesize-response-id';

/** How much of an answer's text grounding offsets are read in; citations past it are left out. */
const GROUNDED_TEXT_CHARS = 4 * 1024 * 1024;

const ZERO_USAGE: UnifiedUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/**
 * Gemini stream → unified events. Each WireEvent's `data` is one GenerateContentResponse (an SSE
 * `data:` payload or one element of the JSON-array form); an array of them is accepted too. Gemini
 * sends each function call whole, so a call is a `tool_call_start` plus one `tool_call_delta` with all
 * of its arguments. `usageMetadata` is cumulative on every chunk; `finish` waits for `end()`, and a
 * stream that closes with no finishReason and no prompt block ends in an error, as the other decoders do.
 */
export function createGeminiStreamDecoder(): StreamDecoder {
  let started = false;
  let closed = false;
  let finishReason: string | undefined;
  let blocked = false;
  let toolIndex = 0;
  let usage: UnifiedUsage | undefined;
  let usageKey = '';
  let nextId = createCallIdAllocator();
  let responseId = '';
  /**
   * The answer's text so far: grounding offsets count into it. Kept up to GROUNDED_TEXT_CHARS (real grounded answers
   * are a few KB): an answer streamed on without end was kept whole, however long, on every Gemini stream.
   */
  let text = '';
  const grounding = createGroundingCollector();

  function fail(error: GatewayError, out: UnifiedStreamEvent[]): void {
    out.push({ type: 'error', error });
    closed = true;
  }

  function handleChunk(value: unknown, raw: string, out: UnifiedStreamEvent[]): void {
    if (isGeminiErrorBody(value)) return fail(decodeGeminiError(value), out);
    let chunk;
    try {
      chunk = validateResponse(value);
    } catch (error) {
      if (!isGatewayError(error)) throw error;
      return fail(error, out);
    }
    if (!started) {
      started = true;
      const id = chunk.responseId ?? synthesizeResponseId(raw);
      responseId = id;
      nextId = createCallIdAllocator([], responseCallIdPrefix(id));
      out.push({
        type: 'start',
        id,
        model: chunk.modelVersion ?? '',
        created: decodeCreateTime(chunk.createTime),
        // The prompt's count is known from the first chunk on (a Messages client reads it from message_start).
        ...(chunk.usageMetadata ? { usage: promptUsage(decodeGeminiUsage(chunk.usageMetadata)) } : {}),
      });
    }
    const candidate = chunk.candidates?.[0];
    if (candidate === undefined && chunk.promptFeedback?.blockReason !== undefined) blocked = true;
    /** Where the chunk's text ends among its events: its citations go there, while the text's message is open. */
    let afterText = out.length;
    for (const part of candidate?.content?.parts ?? []) {
      for (const decoded of decodeGeminiPart(part, nextId) ?? []) {
        switch (decoded.type) {
          case 'text':
            if (text.length < GROUNDED_TEXT_CHARS) text += decoded.text;
            out.push({ type: 'text_delta', text: decoded.text });
            afterText = out.length;
            break;
          case 'reasoning':
            if (decoded.text !== '') out.push({ type: 'reasoning_delta', text: decoded.text });
            if (decoded.signature) out.push({ type: 'reasoning_signature', signature: decoded.signature, provider: 'gemini' });
            break;
          case 'tool_call': {
            const index = toolIndex;
            toolIndex += 1;
            out.push({ type: 'tool_call_start', index, id: decoded.id, name: decoded.name, ...(decoded.signature ? { signature: decoded.signature } : {}) });
            out.push({ type: 'tool_call_delta', index, argumentsDelta: decoded.arguments });
            break;
          }
          default:
            // Generated media arrives inline; a fileData URL in a response has no stream event.
            if (decoded.source.kind === 'base64') out.push({ type: 'media', mediaType: decoded.source.mediaType, data: decoded.source.data });
        }
      }
    }
    // Grounding may come early, in several chunks, or grow on each: gathered, and told with the last chunk, every
    // citation at once right after that chunk's text (before a call of the same chunk would close the text), then
    // the search.
    if (candidate?.groundingMetadata !== undefined) grounding.add(decodeGrounding(candidate.groundingMetadata, text));
    if (candidate?.finishReason !== undefined && grounding.seen()) {
      const gathered = grounding.result();
      const search = groundingSearch(gathered, `ws_${responseId}`);
      const sources: UnifiedStreamEvent[] = [];
      if (gathered.citations.length > 0) sources.push({ type: 'citations', citations: gathered.citations });
      if (search) sources.push({ type: 'web_search', search });
      out.splice(afterText, 0, ...sources);
    }
    if (candidate?.finishReason !== undefined) finishReason = candidate.finishReason;
    if (chunk.usageMetadata) {
      const next = decodeGeminiUsage(chunk.usageMetadata);
      const key = JSON.stringify(next);
      if (key !== usageKey) {
        usageKey = key;
        usage = next;
        out.push({ type: 'usage', usage: next });
      }
    }
    // After the chunk's usage, which the turn still cost.
    const failure = geminiTurnFailure(candidate?.finishReason, candidate?.finishMessage);
    if (failure) fail(failure, out);
  }

  return {
    push(event: WireEvent): UnifiedStreamEvent[] {
      const out: UnifiedStreamEvent[] = [];
      if (closed) return out;
      let value: unknown;
      try {
        value = parseToolJson(event.data);
      } catch (cause) {
        fail(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream Gemini stream: a chunk is not valid JSON', { cause }), out);
        return out;
      }
      // Vertex and the OpenAI-compatible endpoint wrap errors in an array: `[{"error": …}]`.
      for (const item of Array.isArray(value) ? value : [value]) {
        if (closed) break;
        handleChunk(item, event.data, out);
      }
      return out;
    },
    whole(): boolean {
      return !closed && finishReason !== undefined;
    },
    end(): UnifiedStreamEvent[] {
      const out: UnifiedStreamEvent[] = [];
      if (closed) return out;
      if (!started) {
        fail(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream Gemini stream ended before any chunk'), out);
        return out;
      }
      if (finishReason === undefined && !blocked) {
        // Gemini has no end sentinel and sends finishReason on the last chunk only: without one, the stream was cut.
        fail(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream ended before the response was complete'), out);
        return out;
      }
      closed = true;
      // A blocked prompt has no candidate, hence no finishReason.
      const reason = finishReason === undefined ? 'content_filter' : mapGeminiFinishReason(finishReason, toolIndex > 0);
      out.push({ type: 'finish', finishReason: reason, usage: usage ?? ZERO_USAGE });
      return out;
    },
  };
}

/** The input side of a usage: what a stream's start can say before any output is counted. */
function promptUsage(usage: UnifiedUsage): Partial<UnifiedUsage> {
  return usage.cachedInputTokens === undefined ? { inputTokens: usage.inputTokens } : { inputTokens: usage.inputTokens, cachedInputTokens: usage.cachedInputTokens };
}
