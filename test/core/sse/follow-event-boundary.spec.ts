import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { closingPrefix, createEventBoundaryFollower, openEventLacksData, wholeLineEnd } from '../../../core/sse/follow-event-boundary';
import { MAX_EVENT_CHARS } from '../../../core/sse/max-event-chars';

describe('createEventBoundaryFollower', () => {
  const cases: Array<[string, string | undefined]> = [
    ['', ''],
    // A byte order mark alone: nothing to end (SSE parsers drop it).
    ['\ufeff', ''],
    ['\ufeffdata: {"a":1}\n\n', ''],
    ['data: {"a":1}\n\n', ''],
    ['data: {"a":1}\r\n\r\n', ''],
    // CR CR ends the event; the LF added (it could have been half of a CRLF) is taken into the CRLF it makes.
    ['data: {"a":1}\r\r', '\n'],
    // A whole line, no blank line yet: the event is ended in the stream's own style.
    ['data: {"a":1}\n', '\n'],
    ['data: {"a":1}\r\n', '\r\n'],
    // A CR that may be half of a CRLF is completed first.
    ['data: {"a":1}\r', '\n\r\n'],
    ['data: {"a":1}\r\n\r', '\n'],
    // Inside a line: nothing can end it.
    ['data: {"text":"wor', undefined],
    ['event: content_block_delta', undefined],
  ];
  for (const [stream, expected] of cases) {
    it(`after ${JSON.stringify(stream)} an event of our own needs ${JSON.stringify(expected)}`, () => {
      const follower = createEventBoundaryFollower();
      // Byte by byte: the tail must survive chunk boundaries.
      for (const byte of Buffer.from(stream)) follower.push(Buffer.from([byte]));
      expect(follower.closingPrefix()).to.equal(expected);
      expect(closingPrefix(Buffer.from(stream).toString('latin1').slice(-4))).to.equal(expected);
    });
  }

  it('reads the last bytes of a large chunk after a short one', () => {
    const follower = createEventBoundaryFollower();
    follower.push(Buffer.from('\n'));
    follower.push(Buffer.from(`data: ${'x'.repeat(10_000)}\n`));
    expect(follower.closingPrefix()).to.equal('\n');
  });

  describe('an event left open with an event: line and no data yet', () => {
    const cases: Array<[string, boolean, string | undefined]> = [
      // Our lines complete it: an empty event would fail the SDKs' JSON parse.
      ['event: response.output_text.delta\n', true, ''],
      ['data: {"a":1}\n\nevent: message_delta\n', true, ''],
      ['data: {"a":1}\r\n\r\nevent: message_delta\r\n', true, ''],
      ['data: {"a":1}\r\n\r\nevent: message_delta\r', true, '\n'],
      ['data: {"a":1}\n\nid: 7\nevent: ping\n: comment\n', true, ''],
      // With data, or with no event line, or at a boundary, or inside a line: as closingPrefix.
      ['event: message_delta\ndata: {"a":1}\n', false, '\n'],
      ['data: {"a":1}\n\n: keep-alive\n', false, '\n'],
      ['event: message_delta\ndata: {"a":1}\n\n', false, ''],
      ['event: message_delta', false, undefined],
      ['\ufeffevent: x\n', true, ''],
    ];
    for (const [stream, empty, joining] of cases) {
      it(`after ${JSON.stringify(stream)}: empty ${empty}, our lines need ${JSON.stringify(joining)}`, () => {
        const follower = createEventBoundaryFollower();
        for (const byte of Buffer.from(stream)) follower.push(Buffer.from([byte]));
        expect(follower.opensEmptyEvent()).to.equal(empty);
        expect(follower.joiningPrefix()).to.equal(joining);
      });
    }

    it('looks back over large chunks: an event begun before the bytes kept is not known to lack data', () => {
      const follower = createEventBoundaryFollower();
      follower.push(Buffer.from(`data: ${'x'.repeat(5000)}\n\n`));
      follower.push(Buffer.from('event: message_delta\n'));
      expect(follower.opensEmptyEvent()).to.equal(true);
      expect(openEventLacksData(`${'x'.repeat(100)}\nevent: a\n: ${'y'.repeat(2000)}\n`, false)).to.equal(false);
    });
  });

  describe('a stream that stops inside a line: whether that line is a whole data line', () => {
    const cases: Array<[string, string | undefined]> = [
      ['data: {"a":1}\n\ndata: [DONE]', '\n\n'],
      ['data: {"a":1}\r\n\r\nevent: message_stop\r\ndata: {"type":"message_stop"}', '\r\n\r\n'],
      ['data:{"a":1}', '\n\n'],
      // Cut short: nothing can end it.
      ['data: {"a":1}\n\ndata: {"type":"mess', undefined],
      ['data: {"a":1}\n\nevent: message_stop', undefined],
      ['data: {"a":1}\n\n: keep-al', undefined],
    ];
    for (const [stream, expected] of cases) {
      it(`after ${JSON.stringify(stream)}: ${JSON.stringify(expected)}`, () => {
        const follower = createEventBoundaryFollower();
        for (const byte of Buffer.from(stream)) follower.push(Buffer.from([byte]));
        expect(follower.wholeLineEnd()).to.equal(expected);
      });
    }

    it('keeps the open line whole however long, while older chunks go', () => {
      const follower = createEventBoundaryFollower();
      follower.push(Buffer.from(`data: ${JSON.stringify('x'.repeat(5000))}\n\n`));
      const line = `data: ${JSON.stringify({ text: 'y'.repeat(5000) })}`;
      for (let at = 0; at < line.length; at += 100) follower.push(Buffer.from(line.slice(at, at + 100)));
      expect(follower.wholeLineEnd()).to.equal('\n\n');
      expect(wholeLineEnd('y"}', false)).to.equal(undefined);
    });

    it('throws GW_UPSTREAM_BAD_RESPONSE once the open line passes MAX_EVENT_CHARS (an endless line is never held whole)', () => {
      const follower = createEventBoundaryFollower();
      const megabyte = Buffer.alloc(1024 * 1024, 'a');
      // A line break starts the count again: lines each under the bound go on however many there are.
      follower.push(Buffer.concat([Buffer.from('data: "'), megabyte.subarray(0, 1000)]));
      for (let i = 0; i < 31; i++) follower.push(megabyte);
      follower.push(Buffer.from('"\n\ndata: "'));
      // The open line, `data: "` with it, at the bound exactly: still held.
      for (let i = 1; i < MAX_EVENT_CHARS / megabyte.length; i++) follower.push(megabyte);
      follower.push(megabyte.subarray(7));
      expect(() => follower.push(Buffer.from('a'))).to.throw().that.satisfies((error: Error) => isGatewayError(error) && error.code === 'GW_UPSTREAM_BAD_RESPONSE' && /exceeds 32 MB/.test(error.message));
      // Once: the bytes a credential masker held back are relayed after the break, which then reads where the line stands.
      expect(() => follower.push(Buffer.from('sk-'))).to.not.throw();
      expect([follower.closingPrefix(), follower.wholeLineEnd()]).to.deep.equal([undefined, undefined]);
    });
  });
});
