import type { WireEvent } from '../../sse/wire-event';
import type { RequestEcho } from '../../unified/unified-request';
import type { UnifiedUsage } from '../../unified/unified-response';
import type { UnifiedStreamEvent } from '../../unified/unified-stream-event';
import type { StreamEncoder } from '../codec';
import { encodeMessagesStreamError } from '../shared/encode-messages-error';
import { toPrefixedId } from '../shared/to-prefixed-id';
import { encodeMessagesStopReason } from './encode-messages-stop-reason';
import { encodeMessagesUsage } from './encode-messages-usage';

type OpenBlock = { kind: 'text' | 'thinking'; index: number } | { kind: 'tool'; index: number; toolIndex: number };

function wire(type: string, payload: Record<string, unknown>): WireEvent {
  return { event: type, data: JSON.stringify({ type, ...payload }) };
}

/**
 * Unified stream events → Messages SSE events for one response: `message_start`, then per block
 * `content_block_start` / `_delta` / `_stop` with indexes from 0 (a `ping` after the first block
 * start, as the API does), then `message_delta` (stop_reason, usage) and `message_stop`.
 * A block is closed when an event of another kind (or another tool call) arrives.
 */
export function createMessagesStreamEncoder(request: RequestEcho): StreamEncoder {
  let started = false;
  let done = false;
  let pinged = false;
  let nextIndex = 0;
  let open: OpenBlock | undefined;
  let usage: Partial<UnifiedUsage> = {};
  /** Block index of each tool call (by unified tool index), for late argument fragments. */
  const toolBlocks = new Map<number, number>();
  const showThoughts = request.reasoning?.includeThoughts !== false;

  function start(id: string, model: string, out: WireEvent[]): void {
    started = true;
    out.push(wire('message_start', {
      message: {
        id: toPrefixedId('msg_', id),
        type: 'message',
        role: 'assistant',
        model: model || request.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: encodeMessagesUsage(usage),
      },
    }));
  }

  function ensureStarted(out: WireEvent[]): void {
    if (!started) start('', '', out);
  }

  function close(out: WireEvent[]): void {
    if (!open) return;
    out.push(wire('content_block_stop', { index: open.index }));
    open = undefined;
  }

  function openBlock(block: Record<string, unknown>, out: WireEvent[]): number {
    close(out);
    const index = nextIndex++;
    out.push(wire('content_block_start', { index, content_block: block }));
    if (!pinged) {
      pinged = true;
      out.push(wire('ping', {}));
    }
    return index;
  }

  function delta(index: number, payload: Record<string, unknown>, out: WireEvent[]): void {
    out.push(wire('content_block_delta', { index, delta: payload }));
  }

  function onToolDelta(toolIndex: number, argumentsDelta: string, out: WireEvent[]): void {
    const index = toolBlocks.get(toolIndex);
    if (index === undefined || argumentsDelta === '') return;
    // Interleaved fragments of an earlier call still go to its own block index.
    delta(index, { type: 'input_json_delta', partial_json: argumentsDelta }, out);
  }

  function onFinish(event: Extract<UnifiedStreamEvent, { type: 'finish' }>, out: WireEvent[]): void {
    close(out);
    usage = { ...usage, ...event.usage };
    out.push(wire('message_delta', {
      delta: { stop_reason: encodeMessagesStopReason(event.finishReason, event.stopSequence), stop_sequence: event.stopSequence ?? null },
      usage: encodeMessagesUsage(usage),
    }));
    out.push(wire('message_stop', {}));
    done = true;
  }

  function handle(event: UnifiedStreamEvent, out: WireEvent[]): void {
    switch (event.type) {
      case 'start':
        if (event.usage) usage = { ...usage, ...event.usage };
        if (!started) start(event.id, event.model, out);
        return;
      case 'usage':
        usage = { ...usage, ...event.usage };
        return;
      case 'error':
        close(out);
        out.push(...encodeMessagesStreamError(event.error));
        done = true;
        return;
      case 'finish':
        ensureStarted(out);
        onFinish(event, out);
        return;
    }
    ensureStarted(out);
    switch (event.type) {
      case 'text_delta':
        if (event.text === '') return;
        if (open?.kind !== 'text') open = { kind: 'text', index: openBlock({ type: 'text', text: '' }, out) };
        delta(open.index, { type: 'text_delta', text: event.text }, out);
        return;
      case 'reasoning_delta':
        if (event.text === '' || !showThoughts) return;
        if (open?.kind !== 'thinking') open = { kind: 'thinking', index: openBlock({ type: 'thinking', thinking: '', signature: '' }, out) };
        delta(open.index, { type: 'thinking_delta', thinking: event.text }, out);
        return;
      case 'reasoning_signature':
        // A signature belongs to the thinking block it closes; with none open there is nothing to sign.
        if (open?.kind === 'thinking') delta(open.index, { type: 'signature_delta', signature: event.signature }, out);
        return;
      case 'redacted_reasoning': {
        const index = openBlock({ type: 'redacted_thinking', data: event.data }, out);
        out.push(wire('content_block_stop', { index }));
        return;
      }
      case 'tool_call_start': {
        const index = openBlock({ type: 'tool_use', id: toPrefixedId('toolu_', event.id), name: event.name, input: {} }, out);
        open = { kind: 'tool', index, toolIndex: event.index };
        toolBlocks.set(event.index, index);
        return;
      }
      case 'tool_call_delta':
        onToolDelta(event.index, event.argumentsDelta, out);
        return;
      case 'media': {
        const index = openBlock({ type: 'image', source: { type: 'base64', media_type: event.mediaType, data: event.data } }, out);
        out.push(wire('content_block_stop', { index }));
        return;
      }
    }
  }

  return {
    push(event: UnifiedStreamEvent): WireEvent[] {
      if (done) return [];
      const out: WireEvent[] = [];
      handle(event, out);
      return out;
    },
  };
}
