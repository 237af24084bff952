import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import { createMessagesStreamDecoder } from '../../../../core/codecs/messages/create-messages-stream-decoder';
import { createMessagesStreamEncoder } from '../../../../core/codecs/messages/create-messages-stream-encoder';
import { GatewayError } from '../../../../core/errors/gateway-error';
import type { WireEvent } from '../../../../core/sse/wire-event';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';
import { frameSse, readMessagesSse, toSseBody } from './messages-fixtures';
import { stepsUntilThrown } from '../../../helpers/rejection';

const REQUEST: UnifiedRequest = { model: 'claude-sonnet-4-6', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true };

const USAGE = { inputTokens: 120, outputTokens: 45, totalTokens: 165, cachedInputTokens: 100, reasoningTokens: 12 };

/** A stream as a non-Anthropic upstream would give it: thinking with a signature, text, two tool calls. */
const FROM_OTHER: UnifiedStreamEvent[] = [
  { type: 'start', id: 'chatcmpl-abc', model: 'gpt-4.1-mini', created: 1_750_000_000, usage: { inputTokens: 120, cachedInputTokens: 100 } },
  { type: 'reasoning_delta', text: 'Let me ' },
  { type: 'reasoning_delta', text: 'think.' },
  { type: 'reasoning_signature', signature: 'sig-123' },
  { type: 'text_delta', text: 'Checking ' },
  { type: 'text_delta', text: 'two cities.' },
  { type: 'tool_call_start', index: 0, id: 'call_A', name: 'get_weather' },
  { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
  { type: 'tool_call_delta', index: 0, argumentsDelta: '"Paris"}' },
  { type: 'tool_call_start', index: 1, id: 'call_B', name: 'get_weather' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: '{"city":"Rome"}' },
  { type: 'usage', usage: { outputTokens: 40 } },
  { type: 'finish', finishReason: 'tool_calls', usage: USAGE },
];

function encodeAll(events: UnifiedStreamEvent[], request = REQUEST): WireEvent[] {
  const encoder = createMessagesStreamEncoder(request);
  return events.flatMap((e) => encoder.push(e));
}

function payloads(events: WireEvent[]): Array<Record<string, unknown>> {
  return events.map((e) => JSON.parse(e.data) as Record<string, unknown>);
}

/** The official SDK, answering every call with `body` as an SSE stream in uneven chunks. */
function sdkStreaming(body: string): Anthropic {
  return new Anthropic({
    apiKey: 'x',
    baseURL: 'http://sdk.test',
    maxRetries: 0,
    fetch: async () => {
      const bytes = Buffer.from(body, 'utf8');
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 13) controller.enqueue(new Uint8Array(bytes.subarray(i, i + 13)));
          controller.close();
        },
      });
      return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    },
  });
}

function finalMessage(body: string): Promise<Anthropic.Message> {
  return sdkStreaming(body).messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
}

describe('createMessagesStreamEncoder', () => {
  it('writes the exact Messages event sequence with block indexes from 0', () => {
    const events = encodeAll(FROM_OTHER);
    expect(events.map((e) => e.event)).to.deep.equal([
      'message_start',
      'content_block_start', 'ping', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    const data = payloads(events);
    expect(data.every((d, i) => d.type === events[i].event)).to.equal(true);
    expect(data.filter((d) => d.type === 'content_block_start').map((d) => d.index)).to.deep.equal([0, 1, 2, 3]);
    expect(data[0]).to.have.nested.property('message.id').that.match(/^msg_/);
    expect(data[0]).to.have.nested.property('message.usage.input_tokens', 20);
    expect(data[1]).to.deep.equal({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
    expect(data[5]).to.deep.equal({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-123' } });
    expect(data[11]).to.deep.equal({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_A', name: 'get_weather', input: {} } });
    expect(data.at(-2)).to.deep.equal({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 100, output_tokens: 45, output_tokens_details: { thinking_tokens: 12 } },
    });
  });

  it('is rebuilt by the official SDK (messages.stream().finalMessage()): text, thinking + signature, tool input, usage', async () => {
    const message = await finalMessage(toSseBody(encodeAll(FROM_OTHER)));
    expect(message.content.map((b) => b.type)).to.deep.equal(['thinking', 'text', 'tool_use', 'tool_use']);
    const [thinking, text, first, second] = message.content;
    expect(thinking.type === 'thinking' && [thinking.thinking, thinking.signature]).to.deep.equal(['Let me think.', 'sig-123']);
    expect(text.type === 'text' && text.text).to.equal('Checking two cities.');
    expect(first.type === 'tool_use' && [first.id, first.input]).to.deep.equal(['toolu_A', { city: 'Paris' }]);
    expect(second.type === 'tool_use' && second.input).to.deep.equal({ city: 'Rome' });
    expect(message.stop_reason).to.equal('tool_use');
    expect([message.usage.input_tokens, message.usage.cache_read_input_tokens, message.usage.output_tokens]).to.deep.equal([20, 100, 45]);
  });

  for (const name of ['stream-basic.sse', 'stream-thinking.sse', 'stream-tool-use.sse']) {
    it(`re-encodes ${name} into a stream the SDK rebuilds to the same message`, async () => {
      const original = readMessagesSse(name);
      const decoder = createMessagesStreamDecoder();
      const unified = [...frameSse(original, 17).flatMap((e) => decoder.push(e)), ...decoder.end()];
      const reencoded = toSseBody(encodeAll(unified));
      const [expected, actual] = await Promise.all([finalMessage(original), finalMessage(reencoded)]);
      expect(actual.id).to.equal(expected.id);
      expect(actual.content).to.deep.equal(expected.content);
      expect(actual.stop_reason).to.equal(expected.stop_reason);
      expect([actual.usage.input_tokens, actual.usage.output_tokens]).to.deep.equal([expected.usage.input_tokens, expected.usage.output_tokens]);
    });
  }

  it('stops a streamed refusal (chat delta.refusal) with stop_reason refusal', () => {
    const events = payloads(encodeAll([
      { type: 'start', id: 'chatcmpl-r', model: 'gpt-4o', created: 1 },
      { type: 'text_delta', text: 'I cannot help with that.', refusal: true },
      { type: 'finish', finishReason: 'stop', usage: USAGE },
    ]));
    expect(events.find((e) => e.type === 'message_delta')).to.deep.include({ delta: { stop_reason: 'refusal', stop_sequence: null } });
  });

  it('omits signature_delta when no signature is known and closes the thinking block before text', () => {
    const data = payloads(encodeAll([
      { type: 'start', id: 'x', model: 'm', created: 0 },
      { type: 'reasoning_delta', text: 'hmm' },
      { type: 'text_delta', text: 'ok' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } },
    ]));
    expect(data.some((d) => (d.delta as { type?: string } | undefined)?.type === 'signature_delta')).to.equal(false);
    expect(data.map((d) => d.type)).to.deep.equal([
      'message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    expect(data[0]).to.have.nested.property('message.usage.input_tokens', 0);
  });

  it("keeps another provider's signature and opaque reasoning out, as a whole answer does (a Gemini thoughtSignature is no Anthropic signature)", async () => {
    const events: UnifiedStreamEvent[] = [
      { type: 'start', id: 'r1', model: 'gemini-2.5-flash', created: 1 },
      { type: 'reasoning_delta', text: 'Thinking.' },
      { type: 'reasoning_signature', signature: 'c2ln', provider: 'gemini' },
      { type: 'redacted_reasoning', data: 'opaque', provider: 'responses' },
      { type: 'text_delta', text: 'Hi' },
      { type: 'finish', finishReason: 'stop', usage: USAGE },
    ];
    const wire = encodeAll(events);
    expect(wire.map((e) => e.data).join('\n')).not.to.include('c2ln').and.not.include('opaque');
    const message = await finalMessage(toSseBody(wire));
    expect(message.content).to.deep.equal([{ type: 'thinking', thinking: 'Thinking.', signature: '' }, { type: 'text', text: 'Hi' }]);
  });

  it('writes redacted thinking and generated images as whole blocks', async () => {
    const events = encodeAll([
      { type: 'start', id: 'x', model: 'm', created: 0 },
      { type: 'redacted_reasoning', data: 'opaque' },
      { type: 'media', mediaType: 'image/png', data: 'AAAA' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } },
    ]);
    const message = await finalMessage(toSseBody(events));
    expect(message.content).to.deep.equal([
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
    ]);
  });

  it('sends every fragment of a tool call before its block stops when the upstream interleaves parallel calls', () => {
    const events = encodeAll([
      { type: 'start', id: 'x', model: 'm', created: 0 },
      { type: 'tool_call_start', index: 0, id: 'call_A', name: 'read_file' },
      { type: 'tool_call_start', index: 1, id: 'call_B', name: 'read_file' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"path":' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"path":' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"a.ts"}' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '"b.ts"}' },
      { type: 'finish', finishReason: 'tool_calls', usage: USAGE },
    ]);
    const blocks = payloads(events)
      .filter((p) => String(p.type).startsWith('content_block'))
      .map((p) => `${String(p.type).replace('content_block_', '')} ${p.index}${p.delta ? ` ${(p.delta as { partial_json: string }).partial_json}` : ''}`);
    // The second call's block opens once the first is whole, with what it has so far, and stays open until it is whole too.
    expect(blocks).to.deep.equal(['start 0', 'delta 0 {"path":', 'delta 0 "a.ts"}', 'stop 0', 'start 1', 'delta 1 {"path":', 'delta 1 "b.ts"}', 'stop 1']);
  });

  it('keeps a call\'s block open across text or thinking that comes between two of its fragments, and sends them after it', async () => {
    const events = encodeAll([
      { type: 'start', id: 'x', model: 'm', created: 0 },
      { type: 'tool_call_start', index: 0, id: 'call_A', name: 'Bash' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"command":"cat' },
      { type: 'text_delta', text: '\n' },
      { type: 'reasoning_delta', text: 'hm' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: ' x"}' },
      { type: 'text_delta', text: 'done' },
      { type: 'finish', finishReason: 'tool_calls', usage: USAGE },
    ]);
    const blocks = payloads(events)
      .filter((p) => String(p.type).startsWith('content_block'))
      .map((p) => `${String(p.type).replace('content_block_', '')} ${p.index}`);
    expect(blocks).to.deep.equal(['start 0', 'delta 0', 'delta 0', 'stop 0', 'start 1', 'delta 1', 'stop 1', 'start 2', 'delta 2', 'stop 2', 'start 3', 'delta 3', 'stop 3']);
    const message = await finalMessage(toSseBody(events));
    expect(message.content.map((block) => block.type)).to.deep.equal(['tool_use', 'text', 'thinking', 'text']);
    expect(message.content[0]).to.deep.include({ name: 'Bash', input: { command: 'cat x' } });
  });

  it('never stops a held call\'s block before its arguments are whole, whatever comes between its fragments', async () => {
    for (const order of ['text after the first call is whole', 'text before the second call starts'] as const) {
      const tc0Start: UnifiedStreamEvent = { type: 'tool_call_start', index: 0, id: 'call_A', name: 'Bash' };
      const tc1Start: UnifiedStreamEvent = { type: 'tool_call_start', index: 1, id: 'call_B', name: 'Read' };
      const text: UnifiedStreamEvent = { type: 'text_delta', text: '\n' };
      const events = encodeAll([
        { type: 'start', id: 'x', model: 'm', created: 0 },
        tc0Start,
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{"command":' },
        ...(order === 'text before the second call starts' ? [text, tc1Start] : [tc1Start]),
        { type: 'tool_call_delta', index: 1, argumentsDelta: '{"file_path":' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '"ls -la"}' },
        ...(order === 'text after the first call is whole' ? [text] : []),
        { type: 'tool_call_delta', index: 1, argumentsDelta: '"/etc/hosts"}' },
        { type: 'finish', finishReason: 'tool_calls', usage: USAGE },
      ]);
      // What a client acting on content_block_stop sees: each call's input whole when its block stops.
      const inputs = new Map<number, string>();
      for (const payload of payloads(events)) {
        const index = payload.index as number;
        const partial = (payload.delta as { partial_json?: string } | undefined)?.partial_json;
        if (payload.type === 'content_block_delta' && partial !== undefined) {
          expect(inputs.has(index), `${order}: fragment after stop`).to.equal(true);
          inputs.set(index, inputs.get(index)! + partial);
        }
        if (payload.type === 'content_block_start' && (payload.content_block as { type: string }).type === 'tool_use') inputs.set(index, '');
        if (payload.type === 'content_block_stop' && inputs.has(index)) {
          expect(() => JSON.parse(inputs.get(index)!), `${order}: block ${index} stopped with ${inputs.get(index)}`).not.to.throw();
          inputs.delete(index);
        }
      }
      const message = await finalMessage(toSseBody(events));
      const calls = message.content.filter((block) => block.type === 'tool_use');
      expect(calls.map((call) => call.input), order).to.deep.equal([{ command: 'ls -la' }, { file_path: '/etc/hosts' }]);
    }
  });

  it('sends text held behind a call whose arguments never become whole before the finish', () => {
    const events = encodeAll([
      { type: 'tool_call_start', index: 0, id: 'call_A', name: 'Bash' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"command":"ca' },
      { type: 'text_delta', text: 'cut' },
      { type: 'finish', finishReason: 'length', usage: USAGE },
    ]);
    expect(payloads(events).map((p) => p.type)).to.deep.equal([
      'message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_stop', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
  });

  it('fails the answer once what waits behind a call whose arguments never end passes 32 MB (it was held without end)', () => {
    const encoder = createMessagesStreamEncoder(REQUEST);
    encoder.push({ type: 'start', id: 'msg_1', model: 'gpt-4o', created: 1 });
    encoder.push({ type: 'tool_call_start', index: 0, id: 'call_A', name: 'Bash' });
    encoder.push({ type: 'tool_call_delta', index: 0, argumentsDelta: '{"a":' });
    const text = 'x'.repeat(1024 * 1024);
    const { steps, thrown } = stepsUntilThrown(() => encoder.push({ type: 'text_delta', text }));
    expect(steps).to.equal(31);
    expect(thrown).to.be.instanceOf(GatewayError).and.to.include({ code: 'GW_UPSTREAM_BAD_RESPONSE' });
    expect((thrown as Error).message).to.equal('upstream answer held behind a tool call whose arguments never ended exceeds 32 MB');
    // The error event the pump then sends ends the answer as any failure does.
    expect(payloads(encoder.push({ type: 'error', error: thrown as GatewayError })).map((p) => p.type)).to.deep.equal(['error']);
  });

  it('streams a parallel call live when the previous one is whole before it starts (the usual order)', () => {
    const events = encodeAll(FROM_OTHER);
    const toolDeltas = payloads(events).filter((p) => p.type === 'content_block_delta' && (p.delta as { type: string }).type === 'input_json_delta');
    expect(toolDeltas.map((p) => (p.delta as { partial_json: string }).partial_json)).to.deep.equal(['{"city":', '"Paris"}', '{"city":"Rome"}']);
  });

  it('sends no input fragment for arguments that are not a JSON object, as the non-streaming encoder gives {}', async () => {
    for (const args of [['"just a ', 'string"'], ['[1,', '2]'], ['null'], ['  ', ' 7']]) {
      const events = encodeAll([
        { type: 'start', id: 'x', model: 'm', created: 0 },
        { type: 'tool_call_start', index: 0, id: 'call_A', name: 'f' },
        ...args.map((argumentsDelta): UnifiedStreamEvent => ({ type: 'tool_call_delta', index: 0, argumentsDelta })),
        { type: 'tool_call_start', index: 1, id: 'call_B', name: 'g' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: ' ' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: ' {"a"' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: ':1}' },
        { type: 'finish', finishReason: 'tool_calls', usage: USAGE },
      ]);
      const message = await finalMessage(toSseBody(events));
      expect(message.content.map((block) => (block as Anthropic.ToolUseBlock).input), args.join('')).to.deep.equal([{}, { a: 1 }]);
    }
  });

  it('synthesizes message_start when the first event is not a start', () => {
    const data = payloads(encodeAll([{ type: 'text_delta', text: 'hi' }, { type: 'finish', finishReason: 'length', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }]));
    expect(data[0]).to.have.nested.property('message.model', 'claude-sonnet-4-6');
    expect(data.at(-2)).to.have.nested.property('delta.stop_reason', 'max_tokens');
  });

  it('ends with event: error after an error and writes nothing more; the SDK raises it', async () => {
    const events = encodeAll([
      { type: 'start', id: 'x', model: 'm', created: 0 },
      { type: 'text_delta', text: 'Hel' },
      { type: 'error', error: new GatewayError('GW_UPSTREAM_OVERLOADED', 'Overloaded', { upstreamType: 'overloaded_error' }) },
      { type: 'text_delta', text: 'lo' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ]);
    // As stream-error.sse: the open block is not stopped.
    expect(events.map((e) => e.event)).to.deep.equal(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'error']);
    expect(JSON.parse(events.at(-1)?.data ?? '')).to.deep.equal({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    let caught: unknown;
    try {
      await finalMessage(toSseBody(events));
    } catch (e) {
      caught = e;
    }
    expect(caught).to.be.instanceOf(Anthropic.APIError);
    expect(String((caught as Error).message)).to.contain('Overloaded');
  });

  it('ends an error in the middle of a tool call without stopping its block or opening calls held behind it', () => {
    const events = encodeAll([
      { type: 'start', id: 'x', model: 'm', created: 0 },
      { type: 'tool_call_start', index: 0, id: 'call_A', name: 'Bash' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"command":"rm -rf /tmp/bu' },
      { type: 'tool_call_start', index: 1, id: 'call_B', name: 'Read' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"path":"a"}' },
      { type: 'text_delta', text: 'and' },
      { type: 'error', error: new GatewayError('GW_UPSTREAM_TIMEOUT', 'upstream idle timeout') },
    ]);
    expect(events.map((e) => e.event)).to.deep.equal(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'error']);
  });

  it('leaves thought text out when the client asked for none, keeping the answer', () => {
    const data = payloads(encodeAll(FROM_OTHER, { ...REQUEST, reasoning: { enabled: true, includeThoughts: false } }));
    expect(data.filter((d) => d.type === 'content_block_start').map((d) => (d.content_block as { type: string }).type)).to.deep.equal(['text', 'tool_use', 'tool_use']);
  });
});
