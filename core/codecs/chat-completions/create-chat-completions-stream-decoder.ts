import { GatewayError } from '../../errors/gateway-error';
import type { WireEvent } from '../../sse/wire-event';
import type { FinishReason, UnifiedUsage } from '../../unified/unified-response';
import type { UnifiedStreamEvent } from '../../unified/unified-stream-event';
import type { StreamDecoder } from '../codec';
import { decodeOpenAiError } from '../shared/decode-openai-error';
import { decodeChatCompletionsUsage } from './decode-chat-completions-usage';
import { chatAnswerInterruption, mapChatCompletionsFinishReason } from './map-chat-completions-finish-reason';
import { idOrMint } from '../shared/mint-id';
import { createUniqueCallIds } from '../shared/unique-call-ids';
import { readChatContent, readToolArguments } from './read-chat-answer';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** One streamed tool call, joined on the upstream `index` (fixtures README, subtle point 14). */
interface ToolCallState {
  /** Unified index: tool calls are numbered from 0 per response, whatever the upstream's numbering. */
  index: number;
  id?: string;
  name?: string;
  started: boolean;
  /** Argument fragments that arrived before the name (then the call cannot be started yet). */
  pending: string;
}

/**
 * Chat-completion chunks → unified events. Accepts chunks with empty `choices` (the usage chunk),
 * `usage: null`, tool-call fragments joined on `index`, `data: [DONE]`, and a mid-stream
 * `{"error":{…}}`. `finish` is held back until `[DONE]` (or `end()`): the usage chunk follows the finish_reason chunk.
 */
export function createChatCompletionsStreamDecoder(): StreamDecoder {
  let started = false;
  let done = false;
  let failed = false;
  let sawDone = false;
  let finishReason: FinishReason | undefined;
  let usage: UnifiedUsage | undefined;
  const toolCalls = new Map<number, ToolCallState>();
  const uniqueCallId = createUniqueCallIds();
  let nextToolIndex = 0;
  let hasToolCalls = false;

  function fail(error: GatewayError): UnifiedStreamEvent[] {
    failed = true;
    return [{ type: 'error', error }];
  }

  function ensureStarted(chunk: Record<string, unknown>, out: UnifiedStreamEvent[]): void {
    if (started) return;
    started = true;
    out.push({
      type: 'start',
      id: idOrMint(chunk.id, 'chatcmpl-'),
      model: asString(chunk.model) ?? '',
      created: typeof chunk.created === 'number' && chunk.created > 0 ? chunk.created : Math.floor(Date.now() / 1000),
    });
  }

  function startCall(call: ToolCallState, out: UnifiedStreamEvent[]): void {
    call.started = true;
    hasToolCalls = true;
    out.push({ type: 'tool_call_start', index: call.index, id: uniqueCallId(idOrMint(call.id, 'call_')), name: call.name ?? '' });
    if (call.pending) {
      out.push({ type: 'tool_call_delta', index: call.index, argumentsDelta: call.pending });
      call.pending = '';
    }
  }

  function pushToolCalls(fragments: unknown[], out: UnifiedStreamEvent[]): void {
    fragments.forEach((fragment, position) => {
      if (!isRecord(fragment)) return;
      const upstreamIndex = typeof fragment.index === 'number' ? fragment.index : position;
      const fn = isRecord(fragment.function) ? fragment.function : {};
      const id = asString(fragment.id);
      let call = toolCalls.get(upstreamIndex);
      // A new id on a known index is a new call (some backends reuse index 0 for every call).
      if (!call || (id && call.id && id !== call.id)) {
        if (call && !call.started) startCall(call, out);
        call = { index: nextToolIndex++, started: false, pending: '' };
        toolCalls.set(upstreamIndex, call);
      }
      if (id && !call.id) call.id = id;
      const name = asString(fn.name);
      if (name && !call.name) call.name = name;
      const args = readToolArguments(fn.arguments);
      if (!call.started && call.name) startCall(call, out);
      if (!args) return;
      if (call.started) out.push({ type: 'tool_call_delta', index: call.index, argumentsDelta: args });
      else call.pending += args;
    });
  }

  function pushChunk(chunk: Record<string, unknown>): UnifiedStreamEvent[] {
    const out: UnifiedStreamEvent[] = [];
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    // Azure's first chunk carries only its prompt filter results, with an empty id and model and `created: 0`: the
    // answer starts with the next one, whose names and time are the answer's.
    if (!started && choices.length === 0 && chunk.usage === undefined && chunk.prompt_filter_results !== undefined) return out;
    ensureStarted(chunk, out);
    const choice = choices.find((c) => isRecord(c) && (c.index ?? 0) === 0);
    if (isRecord(choice)) {
      const delta = isRecord(choice.delta) ? choice.delta : {};
      const parts = readChatContent(delta.content);
      const reasoning = asString(delta.reasoning_content) ?? asString(delta.reasoning) ?? parts.reasoning;
      if (reasoning) out.push({ type: 'reasoning_delta', text: reasoning });
      const content = parts.text;
      if (content) out.push({ type: 'text_delta', text: content });
      const refusal = asString(delta.refusal);
      if (refusal) out.push({ type: 'text_delta', text: refusal, refusal: true });
      if (Array.isArray(delta.tool_calls)) pushToolCalls(delta.tool_calls, out);
      const reason = asString(choice.finish_reason);
      const interruption = chatAnswerInterruption(reason);
      if (interruption) return [...out, ...fail(interruption)];
      if (reason) finishReason = mapChatCompletionsFinishReason(reason);
    }
    if (isRecord(chunk.usage)) {
      usage = decodeChatCompletionsUsage(chunk.usage);
      out.push({ type: 'usage', usage });
    }
    return out;
  }

  const decoder: StreamDecoder = {
    push(event: WireEvent): UnifiedStreamEvent[] {
      if (done || failed) return [];
      const data = event.data.trim();
      if (data === '[DONE]') {
        // The answer is complete: its finish goes out now, not when the upstream gets round to closing the body.
        sawDone = true;
        return decoder.end();
      }
      if (data === '') return [];
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        return fail(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream sent an event that is not JSON'));
      }
      if (!isRecord(chunk)) return fail(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream sent an event that is not a JSON object'));
      if (isRecord(chunk.error)) return fail(decodeOpenAiError(chunk.error));
      // Some services send the error as a string (`{"error": "Upstream provider error: …"}`); the openai SDK throws on
      // any truthy `error` too. Let through, it would end as a clean stop at the [DONE] that follows.
      if (chunk.error) return fail(decodeOpenAiError({ message: typeof chunk.error === 'string' ? chunk.error : JSON.stringify(chunk.error) }));
      return pushChunk(chunk);
    },
    // A finish_reason has come: only the usage chunk and [DONE] are owed, so a body that then stalls or breaks ends
    // as the finished answer (as one held open after Gemini's finishReason or Anthropic's stop_reason does).
    whole: () => !done && !failed && finishReason !== undefined,
    end(): UnifiedStreamEvent[] {
      if (done || failed) return [];
      done = true;
      if (finishReason === undefined && !sawDone) {
        return [{ type: 'error', error: new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream ended before the response was complete') }];
      }
      const out: UnifiedStreamEvent[] = [];
      ensureStarted({}, out);
      for (const call of toolCalls.values()) if (!call.started) startCall(call, out);
      let reason = finishReason ?? 'stop';
      if (hasToolCalls && (reason === 'stop' || reason === 'other')) reason = 'tool_calls';
      if (!hasToolCalls && reason === 'tool_calls') reason = 'stop';
      out.push({ type: 'finish', finishReason: reason, usage: usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 } });
      return out;
    },
  };
  return decoder;
}
