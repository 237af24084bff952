import { expect } from 'chai';
import { createMessagesStreamDecoder } from '../../../../core/codecs/messages/create-messages-stream-decoder';
import type { WireEvent } from '../../../../core/sse/wire-event';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';
import { frameSse, readMessagesSse } from './messages-fixtures';

function decodeAll(events: WireEvent[]): UnifiedStreamEvent[] {
  const decoder = createMessagesStreamDecoder();
  return [...events.flatMap((e) => decoder.push(e)), ...decoder.end()];
}

/** The events with the arrival time taken out of `start`. */
function stable(events: UnifiedStreamEvent[]): unknown[] {
  return events.map((e) => (e.type === 'start' ? { ...e, created: 0 } : e));
}

function wire(type: string, payload: Record<string, unknown> = {}): WireEvent {
  return { event: type, data: JSON.stringify({ type, ...payload }) };
}

const START = wire('message_start', { message: { id: 'msg_1', model: 'm', usage: { input_tokens: 5, output_tokens: 1 } } });

const CHUNK_SIZES = [1, 3, 7, 64, 100_000];

describe('createMessagesStreamDecoder', () => {
  for (const size of CHUNK_SIZES) {
    describe(`fixtures split into ${size}-byte chunks`, () => {
      it('decodes stream-basic.sse', () => {
        const events = decodeAll(frameSse(readMessagesSse('stream-basic.sse'), size));
        expect(stable(events)).to.deep.equal([
          { type: 'start', id: 'msg_01Bz9yQk4vRkXn3LwJq8TgHd', model: 'claude-sonnet-4-6', created: 0, usage: { inputTokens: 19, outputTokens: 1, totalTokens: 20, cachedInputTokens: 0, cacheCreationInputTokens: 0 } },
          { type: 'text_delta', text: 'Hello' },
          { type: 'text_delta', text: ', nice to meet' },
          { type: 'text_delta', text: ' you!' },
          { type: 'usage', usage: { inputTokens: 19, outputTokens: 11, totalTokens: 30, cachedInputTokens: 0, cacheCreationInputTokens: 0 } },
          { type: 'finish', finishReason: 'stop', usage: { inputTokens: 19, outputTokens: 11, totalTokens: 30, cachedInputTokens: 0, cacheCreationInputTokens: 0 } },
        ]);
      });

      it('decodes stream-thinking.sse (whitespace-padded payloads): thinking, signature, text, thinking tokens', () => {
        const events = decodeAll(frameSse(readMessagesSse('stream-thinking.sse'), size));
        expect(events.map((e) => e.type)).to.deep.equal([
          'start', 'reasoning_delta', 'reasoning_delta', 'reasoning_signature', 'text_delta', 'text_delta', 'usage', 'finish',
        ]);
        const text = (type: string) => events.flatMap((e) => (e.type === type && 'text' in e ? [e.text] : [])).join('');
        expect(text('reasoning_delta')).to.equal('The user asks whether 1071 is divisible by 7. 7 × 153 = 1071, so yes.');
        expect(text('text_delta')).to.equal('Yes — 1071 = 7 × 153.');
        expect(events[3]).to.have.property('signature').that.match(/^EqQBCkgIBxAB/);
        expect(events.at(-1)).to.deep.equal({
          type: 'finish',
          finishReason: 'stop',
          usage: { inputTokens: 52, outputTokens: 71, totalTokens: 123, cachedInputTokens: 0, cacheCreationInputTokens: 0, reasoningTokens: 48 },
        });
      });

      it('decodes stream-tool-use.sse: tool call start, argument fragments, tool_calls', () => {
        const events = decodeAll(frameSse(readMessagesSse('stream-tool-use.sse'), size));
        const toolStart = events.find((e) => e.type === 'tool_call_start');
        expect(toolStart).to.deep.equal({ type: 'tool_call_start', index: 0, id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather' });
        const args = events.flatMap((e) => (e.type === 'tool_call_delta' ? [e.argumentsDelta] : [])).join('');
        expect(JSON.parse(args)).to.deep.equal({ city: 'Paris', unit: 'celsius' });
        expect(events.every((e) => e.type !== 'tool_call_delta' || e.argumentsDelta !== '')).to.equal(true);
        expect(events.at(-1)).to.deep.include({ type: 'finish', finishReason: 'tool_calls' });
      });

      it('decodes stream-error.sse: the text so far, then one overloaded error and nothing else', () => {
        const events = decodeAll(frameSse(readMessagesSse('stream-error.sse'), size));
        expect(events.map((e) => e.type)).to.deep.equal(['start', 'text_delta', 'error']);
        const last = events[2];
        if (last.type !== 'error') throw new Error('expected an error event');
        expect([last.error.code, last.error.status, last.error.upstreamType, last.error.message]).to.deep.equal([
          'GW_UPSTREAM_OVERLOADED', 503, 'overloaded_error', 'Overloaded',
        ]);
      });
    });
  }

  it('maps other mid-stream error types to their statuses', () => {
    const events = decodeAll([START, wire('error', { error: { type: 'rate_limit_error', message: 'slow down' } })]);
    const last = events.at(-1);
    expect(last?.type === 'error' && [last.error.code, last.error.status, last.error.upstreamType]).to.deep.equal(['GW_UPSTREAM_ERROR', 429, 'rate_limit_error']);
  });

  it('gives a tool called without arguments the arguments {}', () => {
    const events = decodeAll([
      START,
      wire('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'now', input: {} } }),
      wire('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '' } }),
      wire('content_block_stop', { index: 0 }),
      wire('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 3 } }),
      wire('message_stop'),
    ]);
    expect(events.filter((e) => e.type === 'tool_call_delta')).to.deep.equal([{ type: 'tool_call_delta', index: 0, argumentsDelta: '{}' }]);
  });

  it('numbers tool calls from 0 across text blocks and emits redacted thinking', () => {
    const events = decodeAll([
      START,
      wire('content_block_start', { index: 0, content_block: { type: 'redacted_thinking', data: 'opaque' } }),
      wire('content_block_stop', { index: 0 }),
      wire('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'a', name: 'f', input: {} } }),
      wire('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"x":1}' } }),
      wire('content_block_stop', { index: 1 }),
      wire('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'b', name: 'g', input: {} } }),
      wire('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{}' } }),
      wire('content_block_stop', { index: 2 }),
      wire('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }),
      wire('message_stop'),
    ]);
    expect(events.filter((e) => e.type === 'redacted_reasoning')).to.deep.equal([{ type: 'redacted_reasoning', data: 'opaque', provider: 'messages' }]);
    expect(events.filter((e) => e.type === 'tool_call_start').map((e) => e.type === 'tool_call_start' && [e.index, e.id])).to.deep.equal([[0, 'a'], [1, 'b']]);
  });

  it('replaces start usage key by key with the cumulative message_delta usage', () => {
    const events = decodeAll([
      wire('message_start', { message: { id: 'msg_1', model: 'm', usage: { input_tokens: 10, cache_read_input_tokens: 50, cache_creation_input_tokens: 2, output_tokens: 1 } } }),
      wire('message_delta', { delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 40 } }),
      wire('message_stop'),
    ]);
    expect(events.at(-1)).to.deep.equal({
      type: 'finish',
      finishReason: 'length',
      usage: { inputTokens: 62, outputTokens: 40, totalTokens: 102, cachedInputTokens: 50, cacheCreationInputTokens: 2 },
    });
  });

  it('holds finish until message_stop, not until the body ends, and keeps the stop sequence', () => {
    const decoder = createMessagesStreamDecoder();
    decoder.push(START);
    expect(decoder.push(wire('message_delta', { delta: { stop_reason: 'stop_sequence', stop_sequence: '###' }, usage: { output_tokens: 2 } })).map((e) => e.type)).to.deep.equal(['usage']);
    expect(decoder.push(wire('message_stop'))).to.deep.equal([
      { type: 'finish', finishReason: 'stop', stopSequence: '###', usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 } },
    ]);
    expect(decoder.end()).to.deep.equal([]);
  });

  it('reports a stream that ends early or is not JSON as GW_UPSTREAM_BAD_RESPONSE', () => {
    const early = decodeAll([START, wire('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })]);
    expect(early.at(-1)?.type === 'error' && early.at(-1)).to.have.nested.property('error.code', 'GW_UPSTREAM_BAD_RESPONSE');
    const garbage = decodeAll([START, { event: 'content_block_delta', data: '{oops' }]);
    expect(garbage.map((e) => e.type)).to.deep.equal(['start', 'error']);
    expect(decodeAll([]).map((e) => e.type)).to.deep.equal(['error']);
  });

  it('ignores pings, citations and server-tool blocks', () => {
    const events = decodeAll([
      wire('ping'),
      START,
      wire('content_block_start', { index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } }),
      wire('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":"x"}' } }),
      wire('content_block_stop', { index: 0 }),
      wire('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
      wire('content_block_delta', { index: 1, delta: { type: 'citations_delta', citation: { type: 'web_search_result_location' } } }),
      wire('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'ok' } }),
      wire('content_block_stop', { index: 1 }),
      wire('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
      wire('message_stop'),
    ]);
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'text_delta', 'usage', 'finish']);
  });
});
