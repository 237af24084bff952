import type { WireEvent } from '../../sse/wire-event';
import type { RequestEcho, WireFormat } from '../../unified/unified-request';
import type { UnifiedUsage } from '../../unified/unified-response';
import type { UnifiedStreamEvent } from '../../unified/unified-stream-event';
import type { StreamEncoder } from '../codec';
import { encodeMessagesStreamError } from '../shared/encode-messages-error';
import { clientFunctionNames } from '../shared/portable-function-names';
import { toPrefixedId } from '../shared/to-prefixed-id';
import { mintId } from '../shared/mint-id';
import { encodeMessagesStopReason } from './encode-messages-stop-reason';
import { encodeMessagesUsage } from './encode-messages-usage';
import { encodeWebSearchBlocks, encodeWebSearchCitation } from './encode-messages-web-search';
import { searchesWeb } from '../shared/searches-web';
import { createArgumentsFollower } from '../shared/parse-tool-call-arguments';
import { createHeldBudget, MAX_EVENT_CHARS } from '../../sse/max-event-chars';

type OpenBlock = { kind: 'text' | 'thinking'; index: number } | { kind: 'tool'; index: number; toolIndex: number };

/** A tool call that started while another one's arguments were still coming: sent whole once that one is done. */
interface HeldToolCall {
  toolIndex: number;
  id: string;
  name: string;
  args: string;
}

function wire(type: string, payload: Record<string, unknown>): WireEvent {
  return { event: type, data: JSON.stringify({ type, ...payload }) };
}

/**
 * Unified stream events → Messages SSE events for one response: `message_start`, then per block
 * `content_block_start` / `_delta` / `_stop` with indexes from 0 (a `ping` after the first block
 * start, as the API does), then `message_delta` (stop_reason, usage) and `message_stop`.
 * A block is closed when an event of another kind (or another tool call) arrives. Some chat upstreams interleave
 * the argument fragments of parallel tool calls; a client acts on a tool call when its block stops (Claude Code runs
 * it), so a call that starts while the open one's arguments are not yet whole JSON is held and sent whole after it;
 * so is text, reasoning or anything else that comes between two fragments of one call (some services send a `"\n"`
 * content delta there): it follows the call's block once the arguments are whole.
 */
export function createMessagesStreamEncoder(request: RequestEcho): StreamEncoder {
  const clientName = clientFunctionNames(request);
  let started = false;
  let done = false;
  let pinged = false;
  /** Text came as the model's refusal: the answer stops with `refusal`. */
  let refused = false;
  let nextIndex = 0;
  let open: OpenBlock | undefined;
  let usage: Partial<UnifiedUsage> = {};
  /** Block index of each tool call (by unified tool index), for late argument fragments. */
  const toolBlocks = new Map<number, number>();
  /** The open tool call's arguments so far, to tell whether another call may start after it. */
  let openArgs = createArgumentsFollower();
  const held: HeldToolCall[] = [];
  /** Events of other kinds that came while the open call's arguments were not whole: sent after its block. */
  const deferred: UnifiedStreamEvent[] = [];
  /**
   * Characters held back behind a call in progress (deferred events, held calls' arguments): an upstream that never
   * ends a call's arguments while the rest of its answer streams on would have them held without end (the process ran
   * out of heap), so past MAX_EVENT_CHARS the answer fails, as an event that large does.
   */
  const heldBudget = createHeldBudget('answer held behind a tool call whose arguments never ended', MAX_EVENT_CHARS);
  /**
   * Whether each call's arguments are a JSON object, known from their first non-blank character: a `tool_use` input
   * is always an object, so arguments that are not one (a misbehaving upstream's string, array or null) send no
   * fragment, and the client keeps the block's `input: {}`, as the non-streaming encoder gives it.
   */
  const argumentShapes = new Map<number, 'object' | 'other' | string>();
  const showThoughts = request.reasoning?.includeThoughts !== false;
  /** The answer's text so far (kept only when it can cite sources), and where the open text block's began in it. */
  const citing = searchesWeb(request);
  let answerText = '';
  let openTextStart = 0;

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

  function openToolBlock(toolIndex: number, id: string, name: string, out: WireEvent[]): number {
    const index = openBlock({ type: 'tool_use', id: toPrefixedId('toolu_', id), name: clientName(name), input: {} }, out);
    open = { kind: 'tool', index, toolIndex };
    openArgs = createArgumentsFollower();
    toolBlocks.set(toolIndex, index);
    return index;
  }

  function onToolStart(event: Extract<UnifiedStreamEvent, { type: 'tool_call_start' }>, out: WireEvent[]): void {
    if (held.length > 0 || callInProgress()) {
      heldBudget.add(event.name.length + event.id.length);
      held.push({ toolIndex: event.index, id: event.id, name: event.name, args: '' });
      return;
    }
    openToolBlock(event.index, event.id, event.name, out);
  }

  function onToolDelta(toolIndex: number, argumentsDelta: string, out: WireEvent[]): void {
    if (argumentsDelta === '') return;
    const waiting = held.find((call) => call.toolIndex === toolIndex);
    if (waiting) {
      heldBudget.add(argumentsDelta.length);
      waiting.args += argumentsDelta;
      return;
    }
    const index = toolBlocks.get(toolIndex);
    if (index === undefined) return;
    const inOpenBlock = open?.kind === 'tool' && open.toolIndex === toolIndex;
    if (inOpenBlock) openArgs.push(argumentsDelta);
    // A fragment of a call whose block has closed still goes to its own index (the SDKs' final message takes it).
    sendArguments(toolIndex, index, argumentsDelta, out);
    if (inOpenBlock && openArgs.whole()) sendWaiting(out);
  }

  /** The open block is a call whose arguments are not whole yet: nothing else may close it. */
  function callInProgress(): boolean {
    return open?.kind === 'tool' && !openArgs.whole();
  }

  /**
   * What waited behind a call in progress: the held calls (each opened once the one before is whole, a call still
   * coming stopping the rest), then the deferred events, in order, as far as no call in progress holds them back.
   * `all` (the answer ends): everything, whole or not.
   */
  function sendWaiting(out: WireEvent[], all = false): void {
    while (held.length > 0 && (all || !callInProgress())) {
      const call = held.shift()!;
      const index = openToolBlock(call.toolIndex, call.id, call.name, out);
      openArgs = createArgumentsFollower(call.args);
      if (call.args !== '') sendArguments(call.toolIndex, index, call.args, out);
    }
    while (deferred.length > 0 && (all || !callInProgress())) emitOther(deferred.shift()!, out);
    if (held.length === 0 && deferred.length === 0) heldBudget.reset();
  }

  /** A call's argument text as `input_json_delta`, held while only blanks have come, dropped if not an object. */
  function sendArguments(toolIndex: number, index: number, text: string, out: WireEvent[]): void {
    const known = argumentShapes.get(toolIndex);
    if (known === 'other') return;
    if (known !== 'object') {
      // Until its first non-blank character, the text so far is kept here.
      text = (known ?? '') + text;
      const first = text.trimStart()[0];
      argumentShapes.set(toolIndex, first === undefined ? text : first === '{' ? 'object' : 'other');
      if (first !== '{') return;
    }
    delta(index, { type: 'input_json_delta', partial_json: text }, out);
  }

  function onFinish(event: Extract<UnifiedStreamEvent, { type: 'finish' }>, out: WireEvent[]): void {
    close(out);
    usage = { ...usage, ...event.usage };
    out.push(wire('message_delta', {
      delta: { stop_reason: encodeMessagesStopReason(event.finishReason, event.stopSequence, refused), stop_sequence: event.stopSequence ?? null },
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
        // As the API ends a failed stream (fixture stream-error.sse): the error, the open block left unstopped. A stop
        // would hand the client a call with cut arguments as finished; held calls and deferred events are dropped.
        out.push(...encodeMessagesStreamError(event.error));
        done = true;
        return;
      case 'finish':
        ensureStarted(out);
        sendWaiting(out, true);
        onFinish(event, out);
        return;
      case 'tool_call_start':
        ensureStarted(out);
        onToolStart(event, out);
        return;
      case 'tool_call_delta':
        ensureStarted(out);
        onToolDelta(event.index, event.argumentsDelta, out);
        return;
    }
    ensureStarted(out);
    // Blocks are sent one after another: nothing may close a call's block before its arguments are whole.
    deferred.push(event);
    sendWaiting(out);
    if (deferred.length > 0) heldBudget.add(JSON.stringify(event).length);
  }

  /** An event that is not part of a tool call, once nothing holds it back. */
  function emitOther(event: UnifiedStreamEvent, out: WireEvent[]): void {
    switch (event.type) {
      case 'text_delta':
        if (event.text === '') return;
        if (event.refusal) refused = true;
        if (open?.kind !== 'text') {
          open = { kind: 'text', index: openBlock({ type: 'text', text: '' }, out) };
          openTextStart = answerText.length;
        }
        if (citing) answerText += event.text;
        delta(open.index, { type: 'text_delta', text: event.text }, out);
        return;
      case 'citations':
        // Sources of text in the block still open arrive as its citations_delta events; the SDK adds them to it.
        if (open?.kind !== 'text') return;
        for (const citation of event.citations) {
          if (citation.start < answerText.length && citation.end > openTextStart) {
            delta(open.index, { type: 'citations_delta', citation: encodeWebSearchCitation(citation, answerText) }, out);
          }
        }
        return;
      case 'web_search': {
        const [use, result] = encodeWebSearchBlocks(event.search);
        const index = openBlock({ ...use, input: {} }, out);
        if (event.search.query !== undefined) delta(index, { type: 'input_json_delta', partial_json: JSON.stringify(use.input) }, out);
        out.push(wire('content_block_stop', { index }));
        const resultIndex = openBlock(result, out);
        out.push(wire('content_block_stop', { index: resultIndex }));
        return;
      }
      case 'reasoning_delta':
        if (event.text === '' || !showThoughts) return;
        if (open?.kind !== 'thinking') open = { kind: 'thinking', index: openBlock({ type: 'thinking', thinking: '', signature: '' }, out) };
        delta(open.index, { type: 'thinking_delta', thinking: event.text }, out);
        return;
      case 'reasoning_signature':
        // A signature belongs to the thinking block it closes; with none open there is nothing to sign. Another
        // provider's (a Gemini thoughtSignature) is no Anthropic signature: left out, as in a whole answer.
        if (open?.kind === 'thinking' && isOwnReasoning(event.provider)) delta(open.index, { type: 'signature_delta', signature: event.signature }, out);
        return;
      case 'redacted_reasoning': {
        // Another provider's opaque reasoning is not exposed (encodeMessagesOutputBlock).
        if (!isOwnReasoning(event.provider)) return;
        const index = openBlock({ type: 'redacted_thinking', data: event.data }, out);
        out.push(wire('content_block_stop', { index }));
        return;
      }
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
    /**
     * A `ping`, as Anthropic sends during a long silence (Claude Code's stream watchdog and proxies' idle timeouts cut
     * a stream that sends nothing), after the `message_start` the upstream has not yet given cause for.
     */
    keepAlive(): WireEvent[] {
      if (done) return [];
      const out: WireEvent[] = [];
      // An id of its own: the upstream's, which would name the message, has not come yet.
      if (!started) start(mintId('msg_'), '', out);
      out.push(wire('ping', {}));
      return out;
    },
  };
}

/** Reasoning a Messages client can replay: Anthropic's own (events without a provider are the format's own). */
function isOwnReasoning(provider: WireFormat | undefined): boolean {
  return provider === undefined || provider === 'messages';
}
