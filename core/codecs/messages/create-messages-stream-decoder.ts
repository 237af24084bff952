import { parseToolJson } from '../../text/exact-json-numbers';
import { GatewayError } from '../../errors/gateway-error';
import type { WireEvent } from '../../sse/wire-event';
import type { FinishReason } from '../../unified/unified-response';
import type { UnifiedStreamEvent } from '../../unified/unified-stream-event';
import type { StreamDecoder } from '../codec';
import { decodeMessagesError } from '../shared/decode-messages-error';
import { decodeMessagesUsage } from './decode-messages-usage';
import { messagesBlockCitations, messagesWebSearchCall, messagesWebSearchResults } from './decode-messages-web-search';
import { mapMessagesFinishReason } from './map-messages-finish-reason';
import { isCodeExecutionCall, renderCodeExecutionCall, renderCodeExecutionResult } from './render-code-execution-block';
import type { MessagesUsage } from './messages-types';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What an open upstream content block turns into. */
type BlockState =
  | { kind: 'thinking' | 'ignored' }
  /** `start`: where its text begins in the answer's text; `citations`: what its citations_delta events cited. */
  | { kind: 'text'; start: number; citations: unknown[] }
  | { kind: 'tool'; toolIndex: number; argumentChars: number }
  /** A web search call: its query arrives as input JSON fragments. */
  | { kind: 'search'; id: string; input: string }
  | { kind: 'code'; name: string; input: string };

/**
 * Messages SSE events → unified stream events, for one response. Usage from `message_start` is
 * replaced key by key by the cumulative `message_delta` usage. `finish` is held until `message_stop` (or `end()`);
 * an `event: error` becomes one `error` event and nothing follows it.
 */
export function createMessagesStreamDecoder(): StreamDecoder {
  let started = false;
  let done = false;
  let stopReason: string | undefined;
  let stopSequence: string | undefined;
  let sawStop = false;
  let usage: MessagesUsage = {};
  let toolCount = 0;
  const blocks = new Map<number, BlockState>();
  /** Length of the text streamed so far: where citations point. */
  let textLength = 0;
  /** Web searches by id, their query known, waiting for their results block. */
  const searches = new Map<string, string | undefined>();

  function text(delta: string): UnifiedStreamEvent[] {
    textLength += delta.length;
    return [{ type: 'text_delta', text: delta }];
  }

  function fail(error: GatewayError): UnifiedStreamEvent[] {
    done = true;
    return [{ type: 'error', error }];
  }

  function mergeUsage(next: unknown): void {
    if (!isObject(next)) return;
    const merged: MessagesUsage = { ...usage };
    for (const [key, value] of Object.entries(next)) if (value !== null && value !== undefined) merged[key] = value;
    usage = merged;
  }

  function onMessageStart(payload: Json): UnifiedStreamEvent[] {
    const message = isObject(payload.message) ? payload.message : {};
    mergeUsage(message.usage);
    started = true;
    const unified = decodeMessagesUsage(usage);
    return [{
      type: 'start',
      id: typeof message.id === 'string' ? message.id : '',
      model: typeof message.model === 'string' ? message.model : '',
      created: Math.floor(Date.now() / 1000),
      usage: unified,
    }];
  }

  function onBlockStart(payload: Json): UnifiedStreamEvent[] {
    const index = Number(payload.index);
    const block = isObject(payload.content_block) ? payload.content_block : {};
    switch (block.type) {
      case 'text':
        blocks.set(index, { kind: 'text', start: textLength, citations: Array.isArray(block.citations) ? [...block.citations] : [] });
        return typeof block.text === 'string' && block.text ? text(block.text) : [];
      case 'thinking': {
        blocks.set(index, { kind: 'thinking' });
        const out: UnifiedStreamEvent[] = [];
        if (typeof block.thinking === 'string' && block.thinking) out.push({ type: 'reasoning_delta', text: block.thinking });
        if (typeof block.signature === 'string' && block.signature) out.push({ type: 'reasoning_signature', signature: block.signature, provider: 'messages' });
        return out;
      }
      case 'redacted_thinking':
        blocks.set(index, { kind: 'ignored' });
        return typeof block.data === 'string' ? [{ type: 'redacted_reasoning', data: block.data, provider: 'messages' }] : [];
      case 'tool_use': {
        const state = { kind: 'tool' as const, toolIndex: toolCount++, argumentChars: 0 };
        blocks.set(index, state);
        const out: UnifiedStreamEvent[] = [{ type: 'tool_call_start', index: state.toolIndex, id: String(block.id ?? ''), name: String(block.name ?? '') }];
        // `input: {}` at the start is a placeholder; some proxies send the whole input here instead of deltas.
        if (isObject(block.input) && Object.keys(block.input).length > 0) {
          const json = JSON.stringify(block.input);
          state.argumentChars += json.length;
          out.push({ type: 'tool_call_delta', index: state.toolIndex, argumentsDelta: json });
        }
        return out;
      }
      default: {
        // Code Claude ran and its result become text once whole (see renderCodeExecutionBlock).
        if (isCodeExecutionCall(block)) {
          const input = isObject(block.input) && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '';
          blocks.set(index, { kind: 'code', name: String(block.name), input });
          return [];
        }
        const result = renderCodeExecutionResult(block);
        if (result !== undefined) {
          blocks.set(index, { kind: 'ignored' });
          return text(result);
        }
        // A web search and its results become one web_search event; other server-side work has no unified form.
        const call = messagesWebSearchCall(block);
        blocks.set(index, call ? { kind: 'search', id: call.id, input: '' } : { kind: 'ignored' });
        if (call) searches.set(call.id, call.query);
        const results = messagesWebSearchResults(block);
        if (!results) return [];
        const query = searches.get(results.searchId);
        return [{ type: 'web_search', search: { id: results.searchId, ...(query !== undefined ? { query } : {}), sources: results.sources, ...(results.failed ? { failed: true } : {}) } }];
      }
    }
  }

  function onBlockDelta(payload: Json): UnifiedStreamEvent[] {
    const state = blocks.get(Number(payload.index));
    const delta = isObject(payload.delta) ? payload.delta : {};
    if (!state || state.kind === 'ignored') return [];
    if (state.kind === 'search' || state.kind === 'code') {
      if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') state.input += delta.partial_json;
      return [];
    }
    switch (delta.type) {
      case 'text_delta':
        return typeof delta.text === 'string' && delta.text ? text(delta.text) : [];
      case 'citations_delta':
        if (state.kind === 'text' && delta.citation !== undefined) state.citations.push(delta.citation);
        return [];
      case 'thinking_delta':
        return typeof delta.thinking === 'string' && delta.thinking ? [{ type: 'reasoning_delta', text: delta.thinking }] : [];
      case 'signature_delta':
        return typeof delta.signature === 'string' && delta.signature ? [{ type: 'reasoning_signature', signature: delta.signature, provider: 'messages' }] : [];
      case 'input_json_delta':
        if (state.kind !== 'tool' || typeof delta.partial_json !== 'string' || delta.partial_json === '') return [];
        state.argumentChars += delta.partial_json.length;
        return [{ type: 'tool_call_delta', index: state.toolIndex, argumentsDelta: delta.partial_json }];
      default:
        // Future delta types carry nothing the unified stream holds.
        return [];
    }
  }

  function onBlockStop(payload: Json): UnifiedStreamEvent[] {
    const state = blocks.get(Number(payload.index));
    if (state?.kind === 'text') {
      // Citations name the whole block, known once it has ended.
      const citations = messagesBlockCitations(state.citations, state.start, textLength);
      return citations.length > 0 ? [{ type: 'citations', citations }] : [];
    }
    if (state?.kind === 'code') {
      let input: unknown;
      try {
        input = JSON.parse(state.input || '{}');
      } catch {
        // Input cut short: no code to show.
      }
      const code = renderCodeExecutionCall(state.name, input);
      return code !== undefined ? text(code) : [];
    }
    if (state?.kind === 'search' && state.input) {
      try {
        const input = JSON.parse(state.input) as { query?: unknown };
        if (typeof input.query === 'string') searches.set(state.id, input.query);
      } catch {
        // A query cut short: the search is still reported, without it.
      }
    }
    // A tool called without arguments streams no fragments; its arguments are still the JSON object `{}`.
    if (state?.kind === 'tool' && state.argumentChars === 0) {
      state.argumentChars = 2;
      return [{ type: 'tool_call_delta', index: state.toolIndex, argumentsDelta: '{}' }];
    }
    return [];
  }

  function onMessageDelta(payload: Json): UnifiedStreamEvent[] {
    const delta = isObject(payload.delta) ? payload.delta : {};
    if (typeof delta.stop_reason === 'string') stopReason = delta.stop_reason;
    if (typeof delta.stop_sequence === 'string') stopSequence = delta.stop_sequence;
    if (!isObject(payload.usage)) return [];
    mergeUsage(payload.usage);
    return [{ type: 'usage', usage: decodeMessagesUsage(usage) }];
  }

  function handle(type: unknown, payload: Json): UnifiedStreamEvent[] {
    if (type === 'error') return fail(decodeMessagesError(payload));
    if (type === 'message_start') return onMessageStart(payload);
    if (!started) {
      return type === 'ping' ? [] : fail(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream stream sent ${String(type)} before message_start`));
    }
    switch (type) {
      case 'content_block_start':
        return onBlockStart(payload);
      case 'content_block_delta':
        return onBlockDelta(payload);
      case 'content_block_stop':
        return onBlockStop(payload);
      case 'message_delta':
        return onMessageDelta(payload);
      case 'message_stop':
        // The answer is complete: its finish goes out now, not when the upstream gets round to closing the body.
        sawStop = true;
        return end();
      default:
        // ping and event types added later.
        return [];
    }
  }

  return {
    push(event: WireEvent): UnifiedStreamEvent[] {
      if (done) return [];
      let payload: unknown;
      try {
        payload = parseToolJson(event.data);
      } catch (cause) {
        return fail(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream sent an event that is not JSON', { cause }));
      }
      if (!isObject(payload)) return fail(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream sent an event that is not a JSON object'));
      return handle(payload.type ?? event.event, payload);
    },
    // message_delta gave the stop reason: only message_stop is owed, so a body that then stalls or breaks ends as the
    // finished answer (as one held open after Gemini's finishReason does).
    whole: () => !done && stopReason !== undefined,
    end,
  };

  function end(): UnifiedStreamEvent[] {
    if (done) return [];
    done = true;
    if (!started) return [{ type: 'error', error: new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream ended before message_start') }];
    if (!sawStop && stopReason === undefined) {
      return [{ type: 'error', error: new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream ended before message_stop') }];
    }
    const finishReason: FinishReason = mapMessagesFinishReason(stopReason);
    return [{ type: 'finish', finishReason, ...(stopSequence ? { stopSequence } : {}), usage: decodeMessagesUsage(usage) }];
  }
}
