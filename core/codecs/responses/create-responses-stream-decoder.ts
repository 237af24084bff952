import { GatewayError } from '../../errors/gateway-error';
import type { WireEvent } from '../../sse/wire-event';
import type { FinishReason, UnifiedUsage } from '../../unified/unified-response';
import type { UnifiedStreamEvent } from '../../unified/unified-stream-event';
import type { StreamDecoder } from '../codec';
import { decodeOpenAiError } from '../shared/decode-openai-error';
import { decodeResponsesUsage } from './decode-responses-usage';
import { decodeResponsesOutputItem } from './decode-response';
import { mapResponsesStatus } from './map-responses-status';
import { idOrMint } from '../shared/mint-id';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** What the decoder remembers of one output item, keyed by `output_index`. */
interface ItemState {
  type: string;
  /** Unified tool-call index (function and custom tool calls only). */
  toolIndex?: number;
  started: boolean;
  /** Text, reasoning or argument text already sent as deltas. */
  streamed: string;
  summaryIndex: number;
}

/**
 * Responses stream events → unified events. Joins function-call arguments on `output_index`, prefers the
 * full text of `.done` events when deltas were missing, takes the name from `output_item.added` (older
 * `.done` events lack it), and holds `finish` back until `end()`.
 */
export function createResponsesStreamDecoder(): StreamDecoder {
  let started = false;
  let failed = false;
  let ended = false;
  let final: { finishReason: FinishReason; usage: UnifiedUsage } | undefined;
  const items = new Map<number, ItemState>();
  let nextToolIndex = 0;

  function fail(error: GatewayError): UnifiedStreamEvent[] {
    failed = true;
    return [{ type: 'error', error }];
  }

  function start(response: unknown, out: UnifiedStreamEvent[]): void {
    if (started) return;
    started = true;
    const r = isRecord(response) ? response : {};
    out.push({
      type: 'start',
      id: idOrMint(r.id, 'resp_'),
      model: asString(r.model) ?? '',
      created: typeof r.created_at === 'number' ? r.created_at : Math.floor(Date.now() / 1000),
    });
  }

  function itemAt(index: unknown, type: string): ItemState {
    const key = typeof index === 'number' ? index : -1;
    let state = items.get(key);
    if (!state) {
      state = { type, started: false, streamed: '', summaryIndex: 0 };
      items.set(key, state);
    }
    return state;
  }

  function startCall(state: ItemState, item: Record<string, unknown>, out: UnifiedStreamEvent[]): void {
    if (state.started) return;
    state.started = true;
    state.toolIndex = nextToolIndex++;
    out.push({ type: 'tool_call_start', index: state.toolIndex, id: idOrMint(asString(item.call_id) || item.id, 'call_'), name: asString(item.name) ?? '' });
  }

  /** Sends what a `.done` text has beyond the deltas already sent (all of it when none were). */
  function catchUp(state: ItemState, full: string, make: (text: string) => UnifiedStreamEvent, out: UnifiedStreamEvent[]): void {
    if (full.length > state.streamed.length && full.startsWith(state.streamed)) {
      out.push(make(full.slice(state.streamed.length)));
      state.streamed = full;
    }
  }

  function itemDone(index: unknown, item: Record<string, unknown>, out: UnifiedStreamEvent[]): void {
    const state = itemAt(index, asString(item.type) ?? '');
    if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      startCall(state, item, out);
      const toolIndex = state.toolIndex ?? 0;
      const [part] = decodeResponsesOutputItem(item);
      if (part?.type === 'tool_call') catchUp(state, part.arguments, (text) => ({ type: 'tool_call_delta', index: toolIndex, argumentsDelta: text }), out);
    } else if (item.type === 'message') {
      const text = decodeResponsesOutputItem(item).map((p) => (p.type === 'text' ? p.text : '')).join('');
      catchUp(state, text, (t) => ({ type: 'text_delta', text: t }), out);
    } else if (item.type === 'reasoning') {
      const [part] = decodeResponsesOutputItem(item);
      if (part?.type !== 'reasoning') return;
      if (state.streamed === '' && part.text) {
        out.push({ type: 'reasoning_delta', text: part.text });
        state.streamed = part.text;
      }
      // Encrypted content closes the reasoning block it belongs to, or stands alone when there was no text.
      if (part.redactedData !== undefined) {
        out.push(state.streamed ? { type: 'reasoning_signature', signature: part.redactedData, provider: 'responses' } : { type: 'redacted_reasoning', data: part.redactedData, provider: 'responses' });
      }
    }
  }

  function handle(type: string, e: Record<string, unknown>): UnifiedStreamEvent[] {
    const out: UnifiedStreamEvent[] = [];
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        start(e.response, out);
        return out;
      case 'error': {
        // OAS ResponseErrorEvent has the fields at the top level; some proxies nest them in `error`.
        const fields = isRecord(e.error) ? e.error : e;
        return fail(decodeOpenAiError({ message: fields.message, code: fields.code, param: fields.param, type: fields.type === 'error' ? fields.code : fields.type ?? fields.code }));
      }
      case 'response.failed': {
        const response = isRecord(e.response) ? e.response : {};
        const error = isRecord(response.error) ? response.error : {};
        return fail(decodeOpenAiError({ message: error.message ?? 'upstream response failed', code: error.code, type: error.code }));
      }
    }
    start(undefined, out);
    switch (type) {
      case 'response.output_item.added': {
        const item = isRecord(e.item) ? e.item : {};
        const state = itemAt(e.output_index, asString(item.type) ?? '');
        if (item.type === 'function_call') {
          startCall(state, item, out);
          const args = asString(item.arguments);
          if (args) catchUp(state, args, (text) => ({ type: 'tool_call_delta', index: state.toolIndex ?? 0, argumentsDelta: text }), out);
        } else if (item.type === 'custom_tool_call') {
          // Freeform input is sent whole as `{"input": …}` when the item is done.
          startCall(state, item, out);
        }
        return out;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const delta = asString(e.delta);
        if (!delta) return out;
        itemAt(e.output_index, 'message').streamed += delta;
        out.push(e.type === 'response.refusal.delta' ? { type: 'text_delta', text: delta, refusal: true } : { type: 'text_delta', text: delta });
        return out;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const delta = asString(e.delta);
        if (!delta) return out;
        const state = itemAt(e.output_index, 'reasoning');
        const summaryIndex = typeof e.summary_index === 'number' ? e.summary_index : 0;
        // Summary parts are separate paragraphs; decodeResponsesOutputItem joins them the same way.
        const text = summaryIndex > state.summaryIndex && state.streamed ? `\n\n${delta}` : delta;
        state.summaryIndex = summaryIndex;
        state.streamed += text;
        out.push({ type: 'reasoning_delta', text });
        return out;
      }
      case 'response.function_call_arguments.delta': {
        const delta = asString(e.delta);
        const state = itemAt(e.output_index, 'function_call');
        if (!delta || state.toolIndex === undefined) return out;
        state.streamed += delta;
        out.push({ type: 'tool_call_delta', index: state.toolIndex, argumentsDelta: delta });
        return out;
      }
      case 'response.function_call_arguments.done': {
        const state = itemAt(e.output_index, 'function_call');
        const args = asString(e.arguments);
        if (args !== undefined && state.toolIndex !== undefined) {
          const toolIndex = state.toolIndex;
          catchUp(state, args, (text) => ({ type: 'tool_call_delta', index: toolIndex, argumentsDelta: text }), out);
        }
        return out;
      }
      case 'response.output_item.done':
        if (isRecord(e.item)) itemDone(e.output_index, e.item, out);
        return out;
      case 'response.completed':
      case 'response.incomplete': {
        const response = isRecord(e.response) ? e.response : {};
        const usage = decodeResponsesUsage(response.usage);
        const incomplete = isRecord(response.incomplete_details) ? response.incomplete_details.reason : undefined;
        const hasToolCalls = [...items.values()].some((s) => s.toolIndex !== undefined);
        const status = response.status ?? (type === 'response.completed' ? 'completed' : 'incomplete');
        final = { finishReason: mapResponsesStatus(status, incomplete, hasToolCalls), usage };
        out.push({ type: 'usage', usage });
        return out;
      }
      default:
        // Lifecycle events of content parts, annotations, hosted tools, keepalives: nothing to translate.
        return out;
    }
  }

  return {
    push(event: WireEvent): UnifiedStreamEvent[] {
      if (failed || ended) return [];
      const data = event.data.trim();
      if (data === '' || data === '[DONE]') return [];
      let payload: unknown;
      try {
        payload = JSON.parse(data);
      } catch {
        return fail(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream sent an event that is not JSON'));
      }
      if (!isRecord(payload)) return fail(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream sent an event that is not a JSON object'));
      if (isRecord(payload.error) && payload.type === undefined) return fail(decodeOpenAiError(payload.error));
      const type = asString(payload.type) ?? event.event ?? '';
      return handle(type, payload);
    },
    end(): UnifiedStreamEvent[] {
      if (failed || ended) return [];
      ended = true;
      if (!final) {
        return [{ type: 'error', error: new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream ended before response.completed') }];
      }
      return [{ type: 'finish', finishReason: final.finishReason, usage: final.usage }];
    },
  };
}
