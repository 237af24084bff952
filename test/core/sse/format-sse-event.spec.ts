import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { formatSseEvent, sseNewlineOf, SSE_HEADERS } from '../../../core/sse/format-sse-event';
import { createSseParser } from '../../../core/sse/parse-sse';
import type { WireEvent } from '../../../core/sse/wire-event';
import { FIXTURES_DIR } from '../../helpers/fixtures';

function parseAll(text: string): WireEvent[] {
  const parser = createSseParser();
  return [...parser.push(text), ...parser.end()];
}

describe('formatSseEvent', () => {
  it('writes the event line only when the event has a name', () => {
    expect(formatSseEvent({ event: 'message_start', data: '{"a":1}' })).to.equal('event: message_start\ndata: {"a":1}\n\n');
    expect(formatSseEvent({ data: '[DONE]' })).to.equal('data: [DONE]\n\n');
  });

  it('writes multi-line data as several data lines', () => {
    expect(formatSseEvent({ data: 'a\nb' })).to.equal('data: a\ndata: b\n\n');
    expect(formatSseEvent({ data: 'a\r\nb\rc' })).to.equal('data: a\ndata: b\ndata: c\n\n');
    expect(formatSseEvent({ data: '' })).to.equal('data: \n\n');
  });

  it('round-trips through the parser', () => {
    const events: WireEvent[] = [
      { event: 'content_block_delta', data: '{"type":"content_block_delta","delta":{"text":"a\\nb"}}' },
      { data: 'line one\nline two\n\nafter a blank line' },
      { data: '  leading spaces and : colons' },
      { data: '' },
      { event: 'done', data: 'ünïcødé 🎉' },
    ];
    expect(parseAll(events.map((event) => formatSseEvent(event)).join(''))).to.deep.equal(events);
  });

  it('round-trips the events of the CRLF Gemini fixture', () => {
    const raw = readFileSync(FIXTURES_DIR + '/gemini/stream-basic.sse', 'utf8');
    const events = parseAll(raw);
    expect(events).to.have.length(2);
    expect(parseAll(events.map((event) => formatSseEvent(event)).join(''))).to.deep.equal(events);
  });

  it('writes the Gemini fixture back byte for byte with Gemini\'s CRLF line ends', () => {
    const raw = readFileSync(FIXTURES_DIR + '/gemini/stream-basic.sse', 'utf8');
    expect(parseAll(raw).map((event) => formatSseEvent(event, sseNewlineOf('gemini'))).join('')).to.equal(raw);
    expect(formatSseEvent({ event: 'x', data: 'a\nb' }, '\r\n')).to.equal('event: x\r\ndata: a\r\ndata: b\r\n\r\n');
    expect(sseNewlineOf('messages')).to.equal('\n');
  });
});

describe('SSE_HEADERS', () => {
  it('declares an unbuffered utf-8 event stream', () => {
    expect(SSE_HEADERS).to.deep.equal({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    expect(Object.isFrozen(SSE_HEADERS)).to.equal(true);
  });
});
