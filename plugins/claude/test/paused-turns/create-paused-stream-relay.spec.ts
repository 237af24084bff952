import { expect } from 'chai';
import { createSseParser, type WireEvent } from '@gateway/core';
import { createPausedStreamRelay } from '../../src/paused-turns/create-paused-stream-relay';
import { messagesStream } from '../helpers/messages-stream';

const search = (id: string): Array<Record<string, unknown>> => [
  { type: 'server_tool_use', id, name: 'web_search', input: { query: id } },
  { type: 'web_search_tool_result', tool_use_id: id, content: [{ type: 'web_search_result', url: `https://example.com/${id}`, title: id, encrypted_content: 'Eq', page_age: null }] },
];
const eventsOf = (bytes: Buffer | string): WireEvent[] => {
  const parser = createSseParser();
  return [...parser.push(bytes), ...parser.end()];
};
const dataOf = (text: string): Array<Record<string, unknown>> => eventsOf(text).map((event) => JSON.parse(event.data) as Record<string, unknown>);

describe('createPausedStreamRelay', () => {
  it('relays two calls as one stream: the pause held back, the second start dropped, indexes going on, usage summed', () => {
    const relay = createPausedStreamRelay();
    const first = messagesStream('msg_1', search('s1'), 'pause_turn', { start: { input_tokens: 100, output_tokens: 1 }, end: { output_tokens: 10, server_tool_use: { web_search_requests: 1 } } });
    const firstOut = eventsOf(first).map((event) => relay.push(event)).join('');
    expect(relay.paused()).to.equal(true);
    expect(relay.complete()).to.equal(true);
    expect(dataOf(firstOut).map((data) => data.type)).to.deep.equal(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'content_block_start', 'content_block_stop']);

    const turn = relay.nextRound();
    expect(turn).to.deep.equal(search('s1'));
    expect(relay.paused()).to.equal(false);
    expect(relay.complete()).to.equal(false);

    const second = messagesStream('msg_2', [{ type: 'text', text: 'Found it.' }], 'end_turn', { start: { input_tokens: 300, output_tokens: 1 }, end: { output_tokens: 30 } });
    const secondOut = dataOf(eventsOf(second).map((event) => relay.push(event)).join(''));
    expect(secondOut.map((data) => data.type)).to.deep.equal(['content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(secondOut.slice(0, 3).map((data) => data.index)).to.deep.equal([2, 2, 2]);
    expect(secondOut[3]).to.deep.equal({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { input_tokens: 400, output_tokens: 40, server_tool_use: { web_search_requests: 1 } } });
  });

  it('sends a first call that is not paused on as it came, event by event', () => {
    const relay = createPausedStreamRelay();
    const stream = messagesStream('msg_1', [{ type: 'text', text: 'Hi' }], 'end_turn');
    const out = eventsOf(stream).map((event) => relay.push(event)).join('');
    expect(eventsOf(out)).to.deep.equal(eventsOf(stream));
    expect(relay.paused()).to.equal(false);
  });

  it('lets the pause through once the continuations are spent, and passes what it cannot read', () => {
    const relay = createPausedStreamRelay(1);
    for (const event of eventsOf(messagesStream('msg_1', search('s1'), 'pause_turn'))) relay.push(event);
    relay.nextRound();
    const out = eventsOf(messagesStream('msg_2', search('s2'), 'pause_turn')).map((event) => relay.push(event)).join('');
    expect(relay.paused()).to.equal(false);
    expect(dataOf(out).map((data) => data.type).slice(-2)).to.deep.equal(['message_delta', 'message_stop']);
    expect(relay.push({ event: 'ping', data: 'not json' })).to.equal('event: ping\ndata: not json\n\n');
  });

  it('keeps the container a call names, in its message or its final delta', () => {
    const relay = createPausedStreamRelay();
    expect(relay.container()).to.equal(undefined);
    relay.push({ event: 'message_start', data: JSON.stringify({ type: 'message_start', message: { id: 'm', content: [], container: { id: 'container_a' }, usage: {} } }) });
    expect(relay.container()).to.equal('container_a');
    relay.push({ event: 'message_delta', data: JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'pause_turn', container: { id: 'container_b', expires_at: 'x' } }, usage: {} }) });
    expect(relay.container()).to.equal('container_b');
  });
});
