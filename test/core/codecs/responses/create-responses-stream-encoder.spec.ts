import { expect } from 'chai';
import OpenAI from 'openai';
import { decodeResponsesRequest } from '../../../../core/codecs/responses/decode-request';
import { createResponsesStreamDecoder } from '../../../../core/codecs/responses/create-responses-stream-decoder';
import { createResponsesStreamEncoder } from '../../../../core/codecs/responses/create-responses-stream-encoder';
import { encodeResponsesResponse } from '../../../../core/codecs/responses/encode-response';
import { GatewayError } from '../../../../core/errors/gateway-error';
import { formatSseEvent } from '../../../../core/sse/format-sse-event';
import type { WireEvent } from '../../../../core/sse/wire-event';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';
import { fixtureText } from '../../../helpers/fixtures';
import { decodeSse, encodeEvents, frameSse, payloads } from '../openai-codec-kit';
import { stepsUntilThrown } from '../../../helpers/rejection';

const REQUEST = decodeResponsesRequest({ model: 'client-model', input: 'q', stream: true, tools: [{ type: 'function', name: 'f' }] });

const START: UnifiedStreamEvent = { type: 'start', id: 'msg_01XYZ', model: 'claude-x', created: 1700000000 };
const USAGE = { inputTokens: 10, outputTokens: 4, totalTokens: 14, cachedInputTokens: 2, cacheCreationInputTokens: 3, reasoningTokens: 1 };

/** The official SDK, answered with `wire` as an SSE stream. */
function sdkServing(wire: WireEvent[]): OpenAI {
  return new OpenAI({ apiKey: 'k', baseURL: 'http://sdk.invalid/v1', maxRetries: 0, fetch: async () => new Response(wire.map((event) => formatSseEvent(event)).join(''), { headers: { 'content-type': 'text/event-stream' } }) });
}

function types(wire: WireEvent[]): string[] {
  return wire.map((e) => e.event ?? '');
}

describe('createResponsesStreamEncoder', () => {
  it('fails an answer whose output, kept for response.completed, passes 64 MB (text streamed on without end was kept whole)', () => {
    const encoder = createResponsesStreamEncoder(REQUEST);
    encoder.push(START);
    const text = 'a'.repeat(8 * 1024 * 1024);
    const { steps, thrown } = stepsUntilThrown(() => encoder.push({ type: 'text_delta', text }));
    expect(steps).to.equal(8);
    expect((thrown as Error).message).to.equal('upstream answer kept for response.completed exceeds 64 MB');
  });

  it('streams two thinking blocks (a redacted one between them) as separate reasoning items, as a whole answer has them', () => {
    const events: UnifiedStreamEvent[] = [
      START,
      { type: 'reasoning_delta', text: 'First I check the file.' },
      { type: 'reasoning_signature', signature: 'sig-1', provider: 'messages' },
      { type: 'redacted_reasoning', data: 'opaque', provider: 'messages' },
      { type: 'reasoning_delta', text: 'Then I answer.' },
      { type: 'reasoning_signature', signature: 'sig-2', provider: 'messages' },
      { type: 'text_delta', text: 'Done.' },
      { type: 'finish', finishReason: 'stop', usage: USAGE },
    ];
    const completed = payloads(encodeEvents(createResponsesStreamEncoder(REQUEST), events)).at(-1)?.response as { output: Array<{ type: string; summary?: Array<{ text: string }> }> };
    const summaries = completed.output.filter((item) => item.type === 'reasoning').map((item) => item.summary?.map((part) => part.text).join(''));
    expect(summaries).to.deep.equal(['First I check the file.', 'Then I answer.']);
  });

  it('re-encodes stream-basic to the same event sequence, with sequence_number from 0 without gaps', () => {
    const fixture = frameSse(fixtureText('openai-responses/stream-basic.sse'), 10000);
    const unified = decodeSse(createResponsesStreamDecoder(), fixtureText('openai-responses/stream-basic.sse'));
    const wire = encodeEvents(createResponsesStreamEncoder(decodeResponsesRequest({ model: 'm', input: 'q', stream: true })), unified);
    expect(types(wire)).to.deep.equal(types(fixture));
    const events = payloads(wire);
    expect(events.map((e) => e.sequence_number)).to.deep.equal(events.map((_, i) => i));
    // Every data.type equals its event name.
    expect(wire.every((e, i) => events[i].type === e.event)).to.equal(true);
    const completed = events.at(-1)?.response as Record<string, unknown>;
    const expected = payloads(fixture).at(-1)?.response as Record<string, unknown>;
    expect(completed.id).to.equal(expected.id);
    // Item ids are the gateway's own (unified events carry none); everything else matches.
    const withoutIds = (output: unknown): unknown => (output as Array<Record<string, unknown>>).map(({ id: _id, ...item }) => item);
    expect(withoutIds(completed.output)).to.deep.equal(withoutIds(expected.output));
    expect(completed.usage).to.deep.equal({ input_tokens: 21, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 8, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 29 });
  });

  it('brackets reasoning, message and function_call items and ends with response.completed holding the whole output', () => {
    const wire = encodeEvents(createResponsesStreamEncoder(REQUEST), [
      START,
      { type: 'reasoning_delta', text: 'think' },
      { type: 'reasoning_signature', signature: 'SIG' },
      { type: 'text_delta', text: 'Hi' },
      { type: 'tool_call_start', index: 0, id: 'toolu_1', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a":' },
      { type: 'tool_call_start', index: 1, id: 'toolu_2', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '1}' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
      { type: 'usage', usage: { inputTokens: 10 } },
      { type: 'finish', finishReason: 'tool_calls', usage: USAGE },
    ]);
    expect(types(wire)).to.deep.equal([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const events = payloads(wire);
    expect(events.map((e) => e.sequence_number)).to.deep.equal(events.map((_, i) => i));
    const response = events.at(-1)?.response as Record<string, unknown>;
    expect(response).to.deep.include({ id: 'resp_01XYZ', status: 'completed', model: 'claude-x', created_at: 1700000000 });
    expect(response.output).to.deep.equal([
      { id: 'rs_01XYZ_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }], encrypted_content: 'SIG' },
      { id: 'msg_01XYZ_1', type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hi' }], role: 'assistant' },
      { id: 'fc_1', type: 'function_call', status: 'completed', arguments: '{"a":1}', call_id: 'toolu_1', name: 'f' },
      { id: 'fc_2', type: 'function_call', status: 'completed', arguments: '{}', call_id: 'toolu_2', name: 'f' },
    ]);
    expect(response.usage).to.deep.equal({ input_tokens: 10, input_tokens_details: { cached_tokens: 2, cache_write_tokens: 3 }, output_tokens: 4, output_tokens_details: { reasoning_tokens: 1 }, total_tokens: 14 });
    // The created event carries the response in progress, with no output and no usage yet.
    expect(events[0].response).to.deep.include({ id: 'resp_01XYZ', status: 'in_progress', output: [], usage: null });
  });

  it('ends with response.incomplete for length, with incomplete_details', () => {
    const wire = encodeEvents(createResponsesStreamEncoder(REQUEST), [START, { type: 'text_delta', text: 'cut' }, { type: 'finish', finishReason: 'length', usage: USAGE }]);
    const last = payloads(wire).at(-1);
    expect(last?.type).to.equal('response.incomplete');
    expect(last?.response).to.deep.include({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    // The item the limit cut is incomplete too, as OpenAI marks it.
    const done = payloads(wire).find((payload) => payload.type === 'response.output_item.done');
    expect(done?.item).to.include({ type: 'message', status: 'incomplete' });
    expect((last?.response as { output: Array<{ status: string }> }).output[0].status).to.equal('incomplete');
  });

  it('marks only the call the limit cut short incomplete: a whole call before it stays completed', () => {
    const wire = encodeEvents(createResponsesStreamEncoder(REQUEST), [
      START,
      { type: 'tool_call_start', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool_call_start', index: 1, id: 'call_2', name: 'f' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"a":' },
      { type: 'finish', finishReason: 'length', usage: USAGE },
    ]);
    const last = payloads(wire).at(-1);
    expect((last?.response as { output: Array<{ status: string; arguments: string }> }).output.map((item) => [item.arguments, item.status])).to.deep.equal([
      ['{"a":1}', 'completed'],
      ['{"a":', 'incomplete'],
    ]);
  });

  it("gives a freeform call the limit cut short its input as far as it came, never the gateway's JSON wrapper", () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'q', stream: true, tools: [{ type: 'custom', name: 'apply_patch' }] });
    const wire = encodeEvents(createResponsesStreamEncoder(request), [
      START,
      { type: 'tool_call_start', index: 0, id: 'call_1', name: 'apply_patch' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"input":"*** Begin Patch\\n' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: 'xx' },
      { type: 'finish', finishReason: 'length', usage: USAGE },
    ]);
    const done = payloads(wire).find((payload) => payload.type === 'response.custom_tool_call_input.done');
    expect(done?.input).to.equal('*** Begin Patch\nxx');
  });

  it('reports an error as `event: error` with code, message, param and the next sequence number, then `response.failed` with that error (what Codex reads); nothing after them', () => {
    const encoder = createResponsesStreamEncoder(REQUEST);
    const wire = encodeEvents(encoder, [
      START,
      { type: 'text_delta', text: 'x' },
      { type: 'error', error: new GatewayError('GW_UPSTREAM_ERROR', 'boom', { status: 500, upstreamCode: 'server_error' }) },
    ]);
    const [error, failed] = wire.slice(-2);
    expect(error.event).to.equal('error');
    expect(JSON.parse(error.data)).to.deep.equal({ type: 'error', sequence_number: wire.length - 2, code: 'server_error', message: 'boom', param: null });
    expect(failed.event).to.equal('response.failed');
    const payload = JSON.parse(failed.data) as { type: string; sequence_number: number; response: { status: string; error: unknown; output: unknown[] } };
    expect(payload).to.include({ type: 'response.failed', sequence_number: wire.length - 1 });
    expect(payload.response).to.include({ status: 'failed' });
    expect(payload.response.error).to.deep.equal({ code: 'server_error', message: 'boom' });
    expect(encoder.push({ type: 'finish', finishReason: 'stop', usage: USAGE })).to.deep.equal([]);
  });

  it('opens the response before an error that comes first, so the SDK stream reports the error, not a missing response.created', async () => {
    const wire = encodeEvents(createResponsesStreamEncoder(REQUEST), [{ type: 'error', error: new GatewayError('GW_UPSTREAM_OVERLOADED', 'Overloaded', { status: 529 }) }]);
    expect(wire.map((event) => event.event)).to.deep.equal(['response.created', 'response.in_progress', 'error', 'response.failed']);
    expect(payloads(wire).map((payload) => payload.sequence_number)).to.deep.equal([0, 1, 2, 3]);
    const client = sdkServing(wire);
    const seen: string[] = [];
    for await (const event of client.responses.stream({ model: 'm', input: 'hi' })) {
      if (event.type === 'error') seen.push(event.message);
      if (event.type === 'response.failed') seen.push(`failed: ${event.response.error?.message ?? ''}`);
    }
    // The SDK's stream helper ends at the error event: its users see what they saw before.
    expect(seen).to.deep.equal(['Overloaded']);
  });

  it('gives a gateway error without an upstream code the OpenAI type for its status', () => {
    const wire = encodeEvents(createResponsesStreamEncoder(REQUEST), [START, { type: 'error', error: new GatewayError('GW_UPSTREAM_TIMEOUT', 'upstream timed out') }]);
    expect(JSON.parse(wire.at(-2)?.data ?? '{}')).to.include({ code: 'server_error', message: 'upstream timed out' });
    expect((JSON.parse(wire.at(-1)?.data ?? '{}') as { response: { error: unknown } }).response.error).to.deep.equal({ code: 'server_error', message: 'upstream timed out' });
  });

  it('emits a standalone reasoning item for redacted reasoning and markdown text for generated images', () => {
    const wire = encodeEvents(createResponsesStreamEncoder(REQUEST), [
      START,
      { type: 'redacted_reasoning', data: 'OPAQUE' },
      { type: 'media', mediaType: 'image/png', data: 'PNG' },
      { type: 'finish', finishReason: 'stop', usage: USAGE },
    ]);
    const output = (payloads(wire).at(-1)?.response as { output: unknown[] }).output;
    expect(output).to.deep.equal([
      { id: 'rs_01XYZ_0', type: 'reasoning', summary: [], encrypted_content: 'OPAQUE' },
      { id: 'msg_01XYZ_1', type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: '![image](data:image/png;base64,PNG)' }], role: 'assistant' },
    ]);
  });

  it("keeps another provider's signature and redacted reasoning out of encrypted_content, as the whole answer does", () => {
    const events: UnifiedStreamEvent[] = [
      START,
      { type: 'reasoning_delta', text: 'think' },
      { type: 'reasoning_signature', signature: 'anthropic-sig', provider: 'messages' },
      { type: 'redacted_reasoning', data: 'OPAQUE', provider: 'messages' },
      { type: 'text_delta', text: 'Hi' },
      // Gemini puts a trailing signature on an empty text part: no item of its own after the message.
      { type: 'reasoning_signature', signature: 'gemini-sig', provider: 'gemini' },
      { type: 'finish', finishReason: 'stop', usage: USAGE },
    ];
    const output = (payloads(encodeEvents(createResponsesStreamEncoder(REQUEST), events)).at(-1)?.response as { output: unknown[] }).output;
    expect(output).to.deep.equal([
      { id: 'rs_01XYZ_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }] },
      { id: 'msg_01XYZ_1', type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hi' }], role: 'assistant' },
    ]);
    const whole = encodeResponsesResponse(
      {
        id: 'msg_01XYZ',
        model: 'claude-x',
        created: 1700000000,
        content: [
          { type: 'reasoning', text: 'think', signature: 'anthropic-sig', provider: 'messages' },
          { type: 'reasoning', text: '', redactedData: 'OPAQUE', provider: 'messages' },
          { type: 'text', text: 'Hi' },
          { type: 'reasoning', text: '', signature: 'gemini-sig', provider: 'gemini' },
        ],
        finishReason: 'stop',
        usage: USAGE,
      },
      REQUEST,
    );
    expect(whole.output).to.deep.equal(output);
  });

  it('streams a refusal as a message with a refusal part (refusal.delta/.done), which the SDK rebuilds', async () => {
    const wire = encodeEvents(createResponsesStreamEncoder(REQUEST), [
      START,
      { type: 'text_delta', text: "I can't ", refusal: true },
      { type: 'text_delta', text: 'help with that.', refusal: true },
      { type: 'finish', finishReason: 'stop', usage: USAGE },
    ]);
    expect(types(wire)).to.deep.equal([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.refusal.delta',
      'response.refusal.delta',
      'response.refusal.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(payloads(wire)[6]).to.include({ refusal: "I can't help with that.", content_index: 0 });
    const client = sdkServing(wire);
    const final = await client.responses.stream({ model: 'm', input: 'hi' }).finalResponse();
    expect(final.output).to.have.length(1);
    const content = final.output[0].type === 'message' ? final.output[0].content : [];
    expect(content).to.have.length(1);
    expect(content[0]).to.deep.include({ type: 'refusal', refusal: "I can't help with that." });
  });

  it('keeps a call open across text that comes between two of its argument deltas, so the SDK rebuilds one whole call', async () => {
    const wire = encodeEvents(createResponsesStreamEncoder(REQUEST), [
      START,
      { type: 'tool_call_start', index: 0, id: 'call_A', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'text_delta', text: '\n' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"Rome"}' },
      { type: 'finish', finishReason: 'tool_calls', usage: USAGE },
    ]);
    const final = await sdkServing(wire).responses.stream({ model: 'm', input: 'hi' }).finalResponse();
    const calls = final.output.filter((item) => item.type === 'function_call');
    expect(calls.map((call) => [call.call_id, call.name, call.arguments])).to.deep.equal([['call_A', 'f', '{"city":"Rome"}']]);
    expect(final.output.map((item) => item.type)).to.deep.equal(['function_call', 'message']);
  });

  it('streams a freeform tool\'s call as a custom_tool_call, its input sent whole when the call closes, which the SDK rebuilds', async () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'q', stream: true, tools: [{ type: 'custom', name: 'apply_patch' }] });
    const wire = encodeEvents(createResponsesStreamEncoder(request), [
      START,
      { type: 'tool_call_start', index: 0, id: 'toolu_07', name: 'apply_patch' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"input":"*** Begin' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: ' Patch"}' },
      { type: 'finish', finishReason: 'tool_calls', usage: USAGE },
    ]);
    expect(types(wire)).to.deep.equal([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const events = payloads(wire);
    expect(events[2].item).to.deep.equal({ id: 'ctc_07', type: 'custom_tool_call', call_id: 'toolu_07', name: 'apply_patch', input: '' });
    expect(events[3]).to.include({ item_id: 'ctc_07', output_index: 0, delta: '*** Begin Patch' });
    expect(events[4]).to.include({ item_id: 'ctc_07', output_index: 0, input: '*** Begin Patch' });
    expect(events[5].item).to.deep.equal({ id: 'ctc_07', type: 'custom_tool_call', call_id: 'toolu_07', name: 'apply_patch', input: '*** Begin Patch' });
    const final = await sdkServing(wire).responses.stream({ model: 'm', input: 'hi' }).finalResponse();
    expect(final.output).to.deep.equal([{ id: 'ctc_07', type: 'custom_tool_call', call_id: 'toolu_07', name: 'apply_patch', input: '*** Begin Patch' }]);
  });
});
