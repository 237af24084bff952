import type { WireEvent } from '../../sse/wire-event';
import type { RequestEcho } from '../../unified/unified-request';
import type { UnifiedCitation, UnifiedUsage, UnifiedWebSearch } from '../../unified/unified-response';
import type { UnifiedStreamEvent } from '../../unified/unified-stream-event';
import type { StreamEncoder } from '../codec';
import { encodeGeminiStreamError } from '../shared/encode-gemini-error';
import { createArgumentsFollower, readToolCallArguments, type ArgumentsFollower } from '../shared/parse-tool-call-arguments';
import { encodeGeminiFinishReason, MALFORMED_FUNCTION_CALL } from './encode-gemini-finish-reason';
import { encodeGeminiUsage } from './encode-gemini-usage';
import { encodeGrounding } from './encode-grounding';
import { searchesWeb } from '../shared/searches-web';
import type { GeminiGenerateContentResponse, GeminiPart } from './gemini-types';
import { clientFunctionNames } from '../shared/portable-function-names';
import { showsThoughts } from './shows-thoughts';
import { createHeldBudget } from '../../sse/max-event-chars';

interface BufferedCall {
  id: string;
  name: string;
  signature?: string;
  args: ArgumentsFollower;
}

/**
 * Unified events → Gemini stream chunks, one GenerateContentResponse per delta (the core writes them
 * as SSE `data:` events or JSON-array elements). Gemini clients expect each function call whole, so
 * tool calls are buffered until an event that is not part of a tool call (or `finish`) and sent as one
 * chunk of functionCall parts, once their arguments are whole; buffering across calls also joins upstreams
 * that interleave argument deltas of parallel calls, or send text between two deltas of one call. A reasoning
 * signature rides on the next part, as Gemini places it. The last chunk carries `finishReason` and the full
 * `usageMetadata`.
 */
export function createGeminiStreamEncoder(request: RequestEcho): StreamEncoder {
  const showThoughts = showsThoughts(request);
  const clientName = clientFunctionNames(request);
  let responseId = '';
  let model = request.model;
  let usage: Partial<UnifiedUsage> | undefined;
  let pendingSignature: string | undefined;
  /** Calls left out for arguments cut short, and calls sent: with none sent, the turn ends MALFORMED_FUNCTION_CALL. */
  let cutShort = false;
  let callsSent = 0;
  let closed = false;
  const calls = new Map<number, BufferedCall>();
  /** Buffered calls whose arguments are not whole yet, counted as deltas come (scanning every call on each event was quadratic). */
  let unfinished = 0;
  /** Calls wait whole, and the answer's text is kept while it can cite sources: bounded. */
  const heldBudget = createHeldBudget('answer held for tool calls and citations');
  /** The answer's text, and the web search sources that cite it: groundingMetadata on the last chunk, as Gemini sends it. */
  const citing = searchesWeb(request);
  let answerText = '';
  const citations: UnifiedCitation[] = [];
  const searches: UnifiedWebSearch[] = [];

  function chunk(parts: GeminiPart[], finishReason?: string, grounding?: Record<string, unknown>): WireEvent {
    const body: GeminiGenerateContentResponse = {
      candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0, ...(grounding ? { groundingMetadata: grounding } : {}) }],
      ...(usage ? { usageMetadata: encodeGeminiUsage(usage) } : {}),
      modelVersion: model,
      responseId,
    };
    return { data: JSON.stringify(body) };
  }

  /** Puts a held signature on `part`, or on an empty text part before it when `part` has its own. */
  function signed(part: GeminiPart): GeminiPart[] {
    if (pendingSignature === undefined) return [part];
    const signature = pendingSignature;
    pendingSignature = undefined;
    if (part.thoughtSignature === undefined) return [{ ...part, thoughtSignature: signature }];
    return [{ text: '', thoughtSignature: signature }, part];
  }

  /**
   * Takes the buffered calls, in index order, as functionCall parts (one chunk, as Gemini sends parallel calls); one
   * whose arguments were cut short is left out (see encodeOutputParts).
   */
  function takeCalls(): GeminiPart[] {
    const parts = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, call]) => {
        const { args, cutShort: cut } = readToolCallArguments(call.args.text);
        if (cut) {
          cutShort = true;
          return [];
        }
        callsSent += 1;
        return signed({ functionCall: { id: call.id, name: clientName(call.name), args }, ...(call.signature ? { thoughtSignature: call.signature } : {}) });
      });
    calls.clear();
    unfinished = 0;
    return parts;
  }

  return {
    push(event: UnifiedStreamEvent): WireEvent[] {
      const out: WireEvent[] = [];
      if (closed) return out;
      switch (event.type) {
        case 'start':
          responseId = event.id;
          if (event.model) model = event.model;
          if (event.usage) usage = { ...event.usage };
          return out;
        case 'usage':
          usage = { ...usage, ...event.usage };
          return out;
        case 'tool_call_start': {
          const replaced = calls.get(event.index);
          if (replaced && !replaced.args.whole()) unfinished -= 1;
          calls.set(event.index, { id: event.id, name: event.name, args: createArgumentsFollower(), ...(event.signature ? { signature: event.signature } : {}) });
          unfinished += 1;
          return out;
        }
        case 'tool_call_delta': {
          const call = calls.get(event.index);
          if (!call) return out;
          heldBudget.add(event.argumentsDelta.length);
          const wasWhole = call.args.whole();
          call.args.push(event.argumentsDelta);
          unfinished += Number(wasWhole) - Number(call.args.whole());
          return out;
        }
        case 'citations':
          citations.push(...event.citations);
          return out;
        case 'web_search':
          searches.push(event.search);
          return out;
        case 'error':
          // Buffered calls may be incomplete: the client gets the error instead.
          closed = true;
          calls.clear();
          unfinished = 0;
          out.push(...encodeGeminiStreamError(event.error));
          return out;
        case 'finish': {
          // Pending calls go out with the finish reason and the final usage, as Gemini ends a call turn. Taken first: a
          // call the encoder cannot write (see readToolCallArguments) throws, and the error event that follows is written.
          const parts = takeCalls();
          closed = true;
          usage = event.usage;
          // The finish reason rides on a part, as Gemini sends it: the SDK's chat drops a turn any of whose chunks has
          // no parts (isValidContent), and with it the client's own message from the history.
          if (pendingSignature !== undefined || parts.length === 0) parts.push(...signed({ text: '' }));
          const grounding = encodeGrounding(answerText, citations, searches);
          out.push(chunk(parts, cutShort && callsSent === 0 ? MALFORMED_FUNCTION_CALL : encodeGeminiFinishReason(event.finishReason), grounding));
          return out;
        }
        default:
          break;
      }
      // Calls whose arguments are not whole yet wait for their next deltas (areArgumentsWhole), and the others with them.
      const callParts = unfinished === 0 ? takeCalls() : [];
      if (callParts.length > 0) out.push(chunk(callParts));
      switch (event.type) {
        case 'text_delta':
          if (citing) {
            heldBudget.add(event.text.length);
            answerText += event.text;
          }
          if (event.text !== '') out.push(chunk(signed({ text: event.text })));
          break;
        case 'reasoning_delta':
          if (showThoughts && event.text !== '') out.push(chunk(signed({ text: event.text, thought: true })));
          break;
        case 'reasoning_signature':
          // Another provider's signature (Claude's) is nothing a Gemini client can hold, as in a whole answer.
          if (event.provider !== 'gemini') break;
          if (pendingSignature !== undefined) out.push(chunk(signed({ text: '' })));
          pendingSignature = event.signature;
          break;
        case 'media':
          out.push(chunk(signed({ inlineData: { mimeType: event.mediaType, data: event.data } })));
          break;
        default:
          // redacted_reasoning: opaque state of another provider, nothing a Gemini client can hold.
          break;
      }
      return out;
    },
  };
}
