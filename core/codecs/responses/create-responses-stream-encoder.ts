import type { WireEvent } from '../../sse/wire-event';
import type { RequestEcho } from '../../unified/unified-request';
import type { UnifiedUsage } from '../../unified/unified-response';
import type { UnifiedStreamEvent } from '../../unified/unified-stream-event';
import type { StreamEncoder } from '../codec';
import { toDataUri } from '../shared/parse-data-uri';
import { createArgumentsFollower, type ArgumentsFollower } from '../shared/parse-tool-call-arguments';
import { toPrefixedId } from '../shared/to-prefixed-id';
import { buildResponsesObject } from './build-responses-object';
import { encodeResponsesToolCall, isOwnReasoning, responsesItemId, wholeArguments } from './encode-responses-output';
import { freeformInput } from './freeform-tools';
import { encodeResponsesStreamError, responsesErrorOf } from './encode-responses-stream-error';
import { encodeUrlCitation, encodeWebSearchCall } from './encode-responses-web-search';
import { searchesWeb } from '../shared/searches-web';
import { createTextOffsetMap } from '../shared/text-offset-map';
import { encodeResponsesUsage } from './encode-responses-usage';
import { encodeResponsesStatus } from './map-responses-status';
import { createHeldBudget } from '../../sse/max-event-chars';
import type {
  ResponsesOutputCustomToolCall,
  ResponsesOutputFunctionCall,
  ResponsesOutputItem,
  ResponsesOutputReasoning,
  ResponsesStatus,
  ResponsesUrlCitation,
} from './responses-types';

interface Head {
  id: string;
  createdAt: number;
  model: string;
}

/** The text item (message or reasoning) being streamed; only one is open at a time. */
interface OpenText {
  /** `refusal`: a message item whose one content part is a `refusal` (the model declining), not `output_text`. */
  kind: 'message' | 'refusal' | 'reasoning';
  outputIndex: number;
  id: string;
  text: string;
  encrypted?: string;
  /** The url_citations of a message's output_text, as they came. */
  annotations: ResponsesUrlCitation[];
}

/**
 * A tool call being streamed. Calls stay open until another kind of event, so interleaved upstream calls still join;
 * one whose arguments are not whole yet stays open across it too (areArgumentsWhole).
 */
interface OpenCall {
  outputIndex: number;
  item: ResponsesOutputFunctionCall | ResponsesOutputCustomToolCall;
  /** The unified arguments so far; a freeform call's are `{"input": …}`, unwrapped only once whole. */
  args: ArgumentsFollower;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * Unified events → the Responses event sequence (fixtures openai-responses/stream-*.sse): `response.created`,
 * `response.in_progress`, then per output item `output_item.added`, its content events
 * (`content_part.added`, `output_text.delta`…, `output_text.done`, `content_part.done` for messages;
 * `reasoning_summary_part.added`, `reasoning_summary_text.delta`… for reasoning;
 * `function_call_arguments.delta`…/`.done` for calls, `custom_tool_call_input.delta`/`.done` once for a freeform call) and `output_item.done`, then `response.completed`
 * (or `response.incomplete` for length/content_filter) with the whole output and usage. `sequence_number`
 * runs from 0 without gaps.
 */
export function createResponsesStreamEncoder(request: RequestEcho): StreamEncoder {
  let sequence = 0;
  let head: Head | undefined;
  let closed = false;
  let open: OpenText | undefined;
  const calls = new Map<number, OpenCall>();
  /** The output is kept whole for the closing events (`response.completed` repeats it): bounded. */
  const heldBudget = createHeldBudget('answer kept for response.completed');
  /** Output items by output_index; a slot is reserved when the item opens and filled when it is done. */
  const output: Array<ResponsesOutputItem | undefined> = [];
  /** Where the answer's text landed (kept only when it can cite sources): citations annotate the message item holding it. */
  const offsets = searchesWeb(request) ? createTextOffsetMap<OpenText>() : undefined;

  function emit(out: WireEvent[], type: string, payload: Record<string, unknown>): void {
    out.push({ event: type, data: JSON.stringify({ type, sequence_number: sequence++, ...payload }) });
  }

  function snapshot(h: Head, status: ResponsesStatus, usage: UnifiedUsage | undefined, completedAt: number | null, incompleteDetails: { reason: string } | null): unknown {
    return buildResponsesObject(
      { id: h.id, createdAt: h.createdAt, model: h.model, status, completedAt, incompleteDetails, output: status === 'in_progress' ? [] : output.filter((item): item is ResponsesOutputItem => item !== undefined), usage: usage ? encodeResponsesUsage(usage) : null },
      request,
    );
  }

  function begin(id: string, model: string, created: number, out: WireEvent[]): Head {
    const h: Head = { id: toPrefixedId('resp_', id), createdAt: created, model: model || request.model };
    head = h;
    emit(out, 'response.created', { response: snapshot(h, 'in_progress', undefined, null, null) });
    emit(out, 'response.in_progress', { response: snapshot(h, 'in_progress', undefined, null, null) });
    return h;
  }

  function ensureHead(out: WireEvent[]): Head {
    return head ?? begin('resp_gateway', request.model, nowSeconds(), out);
  }

  /** `status`: an item still open when the answer ends incomplete (the token limit) was cut short: `incomplete`. */
  function closeText(out: WireEvent[], status: 'completed' | 'incomplete' = 'completed'): void {
    const item = open;
    if (!item) return;
    open = undefined;
    const base = { item_id: item.id, output_index: item.outputIndex };
    let done: ResponsesOutputItem;
    if (item.kind !== 'reasoning') {
      const part =
        item.kind === 'refusal' ? { type: 'refusal' as const, refusal: item.text } : { type: 'output_text' as const, annotations: item.annotations, logprobs: [], text: item.text };
      if (item.kind === 'refusal') emit(out, 'response.refusal.done', { ...base, content_index: 0, refusal: item.text });
      else emit(out, 'response.output_text.done', { ...base, content_index: 0, text: item.text, logprobs: [] });
      emit(out, 'response.content_part.done', { ...base, content_index: 0, part });
      done = { id: item.id, type: 'message', status, content: [part], role: 'assistant' };
    } else {
      const summary: ResponsesOutputReasoning['summary'] = item.text ? [{ type: 'summary_text', text: item.text }] : [];
      if (item.text) {
        emit(out, 'response.reasoning_summary_text.done', { ...base, summary_index: 0, text: item.text });
        emit(out, 'response.reasoning_summary_part.done', { ...base, summary_index: 0, part: summary[0] });
      }
      const reasoningItem: ResponsesOutputReasoning = { id: item.id, type: 'reasoning', summary };
      if (item.encrypted !== undefined) reasoningItem.encrypted_content = item.encrypted;
      done = reasoningItem;
    }
    output[item.outputIndex] = done;
    emit(out, 'response.output_item.done', { output_index: item.outputIndex, item: done });
  }

  /** Closes the open calls; `onlyWhole`: those whose arguments are whole, the others stay open for their next deltas. */
  function closeCalls(out: WireEvent[], onlyWhole = false, status: 'completed' | 'incomplete' = 'completed'): void {
    for (const [index, call] of calls) {
      if (onlyWhole && !call.args.whole()) continue;
      calls.delete(index);
      const { item, outputIndex } = call;
      let done: ResponsesOutputItem;
      if (item.type === 'custom_tool_call') {
        done = { ...item, input: freeformInput(call.args.text) };
        const at = { item_id: item.id, output_index: outputIndex };
        if (done.input) emit(out, 'response.custom_tool_call_input.delta', { ...at, delta: done.input });
        emit(out, 'response.custom_tool_call_input.done', { ...at, input: done.input });
      } else {
        if (item.arguments === '' && status === 'completed') {
          item.arguments = wholeArguments('');
          emit(out, 'response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta: item.arguments });
        }
        emit(out, 'response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, name: item.name, arguments: item.arguments });
        // Only a call the limit cut short is incomplete: a whole one before it is the client's to run.
        done = { ...item, status: status === 'incomplete' && !call.args.whole() ? 'incomplete' : 'completed' };
      }
      output[outputIndex] = done;
      emit(out, 'response.output_item.done', { output_index: outputIndex, item: done });
    }
  }

  function openText(kind: OpenText['kind'], h: Head, out: WireEvent[]): OpenText {
    if (open?.kind === kind) return open;
    closeText(out);
    closeCalls(out, true);
    const outputIndex = output.length;
    output.push(undefined);
    const item: OpenText = { kind, outputIndex, id: responsesItemId(kind === 'reasoning' ? 'rs_' : 'msg_', h.id, outputIndex), text: '', annotations: [] };
    open = item;
    if (kind !== 'reasoning') {
      emit(out, 'response.output_item.added', { output_index: outputIndex, item: { id: item.id, type: 'message', status: 'in_progress', content: [], role: 'assistant' } });
      const part = kind === 'refusal' ? { type: 'refusal', refusal: '' } : { type: 'output_text', annotations: [], logprobs: [], text: '' };
      emit(out, 'response.content_part.added', { item_id: item.id, output_index: outputIndex, content_index: 0, part });
    } else {
      emit(out, 'response.output_item.added', { output_index: outputIndex, item: { id: item.id, type: 'reasoning', summary: [] } });
    }
    return item;
  }

  /** Message text, or a refusal (its own message item, with a `refusal` part). `answerText`: part of the answer's text. */
  function text(delta: string, h: Head, out: WireEvent[], refusal = false, answerText = true): void {
    const item = openText(refusal ? 'refusal' : 'message', h, out);
    if (answerText) offsets?.add(delta.length, refusal ? undefined : { key: item, offset: item.text.length });
    heldBudget.add(delta.length);
    item.text += delta;
    const at = { item_id: item.id, output_index: item.outputIndex, content_index: 0, delta };
    if (refusal) emit(out, 'response.refusal.delta', at);
    else emit(out, 'response.output_text.delta', { ...at, logprobs: [] });
  }

  function reasoning(delta: string, h: Head, out: WireEvent[]): void {
    const item = openText('reasoning', h, out);
    if (item.text === '') {
      emit(out, 'response.reasoning_summary_part.added', { item_id: item.id, output_index: item.outputIndex, summary_index: 0, part: { type: 'summary_text', text: '' } });
    }
    heldBudget.add(delta.length);
    item.text += delta;
    emit(out, 'response.reasoning_summary_text.delta', { item_id: item.id, output_index: item.outputIndex, summary_index: 0, delta });
  }

  /** A search the upstream ran: its item opens and is done at once (it ran upstream before this event). */
  function webSearch(search: Parameters<typeof encodeWebSearchCall>[0], out: WireEvent[]): void {
    closeText(out);
    closeCalls(out, true);
    const outputIndex = output.length;
    const done = encodeWebSearchCall(search);
    const at = { item_id: done.id, output_index: outputIndex };
    emit(out, 'response.output_item.added', { output_index: outputIndex, item: { ...done, status: 'in_progress' } });
    emit(out, 'response.web_search_call.in_progress', at);
    emit(out, 'response.web_search_call.searching', at);
    // A failed search has no event of its own: its item is done with status failed.
    if (done.status === 'completed') emit(out, 'response.web_search_call.completed', at);
    output.push(done);
    emit(out, 'response.output_item.done', { output_index: outputIndex, item: done });
  }

  function startCall(index: number, id: string, name: string, out: WireEvent[]): OpenCall {
    closeText(out);
    const outputIndex = output.length;
    output.push(undefined);
    const encoded = encodeResponsesToolCall(id, name, '', request);
    const item = encoded.type === 'function_call' ? { ...encoded, status: 'in_progress' as const } : encoded;
    const call: OpenCall = { outputIndex, item, args: createArgumentsFollower() };
    calls.set(index, call);
    emit(out, 'response.output_item.added', { output_index: outputIndex, item });
    return call;
  }

  return {
    push(event: UnifiedStreamEvent): WireEvent[] {
      const out: WireEvent[] = [];
      if (closed) return out;
      if (event.type === 'start') {
        if (!head) begin(event.id, event.model, event.created, out);
        return out;
      }
      if (event.type === 'error') {
        closed = true;
        // As the API does (fixture stream-error.sse): the SDKs' stream helpers need `response.created` before anything.
        const h = ensureHead(out);
        out.push(...encodeResponsesStreamError(event.error, sequence++));
        // Then the response, failed with that error: Codex skips `error` events and reads a failure (its message, a
        // rate limit's wait, a full context) only from `response.failed`; without it, it saw a stream that just stopped.
        emit(out, 'response.failed', { response: { ...(snapshot(h, 'failed', undefined, null, null) as object), error: responsesErrorOf(event.error) } });
        return out;
      }
      const h = ensureHead(out);
      switch (event.type) {
        case 'text_delta':
          if (event.text) text(event.text, h, out, event.refusal);
          break;
        case 'media':
          text(`![image](${toDataUri(event.mediaType, event.data)})`, h, out, false, false);
          break;
        case 'citations':
          for (const citation of event.citations) {
            const at = offsets?.locate(citation.start, citation.end);
            if (!at) continue;
            const annotation = encodeUrlCitation(citation, at.start, at.end);
            at.key.annotations.push(annotation);
            // A message already done keeps it in the final output; an open one announces it.
            if (at.key === open) {
              emit(out, 'response.output_text.annotation.added', { item_id: at.key.id, output_index: at.key.outputIndex, content_index: 0, annotation_index: at.key.annotations.length - 1, annotation });
            }
          }
          break;
        case 'web_search':
          webSearch(event.search, out);
          break;
        case 'reasoning_delta':
          if (event.text) reasoning(event.text, h, out);
          break;
        // Opaque reasoning is replayable only by the provider that made it (as in encodeResponsesOutput): another
        // provider's signature is not `encrypted_content`, and reasoning with nothing to show makes no item.
        // Either ends the reasoning block it follows, whoever made it: the next thought is an item of its own, as
        // in a whole answer (two thinking blocks streamed into one item ran their texts together).
        case 'reasoning_signature':
          if (isOwnReasoning(event.provider)) (open?.kind === 'reasoning' ? open : openText('reasoning', h, out)).encrypted = event.signature;
          if (open?.kind === 'reasoning') closeText(out);
          break;
        case 'redacted_reasoning':
          if (open?.kind === 'reasoning') closeText(out);
          if (!isOwnReasoning(event.provider)) break;
          openText('reasoning', h, out).encrypted = event.data;
          closeText(out);
          break;
        case 'tool_call_start':
          if (!calls.has(event.index)) startCall(event.index, event.id, event.name, out);
          break;
        case 'tool_call_delta': {
          if (!event.argumentsDelta) break;
          const call = calls.get(event.index) ?? startCall(event.index, `call_${event.index}`, '', out);
          heldBudget.add(event.argumentsDelta.length);
          call.args.push(event.argumentsDelta);
          // A freeform call's input is JSON-wrapped upstream: it goes out whole when the call closes (closeCalls).
          if (call.item.type !== 'function_call') break;
          call.item.arguments += event.argumentsDelta;
          emit(out, 'response.function_call_arguments.delta', { item_id: call.item.id, output_index: call.outputIndex, delta: event.argumentsDelta });
          break;
        }
        case 'usage':
          // Cumulative usage is reported once, in the terminal event.
          break;
        case 'finish': {
          const { status, incompleteDetails } = encodeResponsesStatus(event.finishReason);
          closeText(out, status);
          closeCalls(out, false, status);
          closed = true;
          const type = status === 'completed' ? 'response.completed' : 'response.incomplete';
          emit(out, type, { response: snapshot(h, status, event.usage, nowSeconds(), incompleteDetails) });
          break;
        }
      }
      return out;
    },
  };
}
