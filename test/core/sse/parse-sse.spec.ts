import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { createSseParser } from '../../../core/sse/parse-sse';
import type { WireEvent } from '../../../core/sse/wire-event';
import { FIXTURES_DIR } from '../../helpers/fixtures';

const FIXTURES = FIXTURES_DIR;

function parseChunks(chunks: Array<Buffer | string>): WireEvent[] {
  const parser = createSseParser();
  const out: WireEvent[] = [];
  for (const chunk of chunks) out.push(...parser.push(chunk));
  out.push(...parser.end());
  return out;
}

function splitEvery(buf: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) chunks.push(buf.subarray(i, i + size));
  return chunks;
}

/** Deterministic uneven chunks (xorshift PRNG), sizes 1..max. */
function splitRandom(buf: Buffer, seed: number, max: number): Buffer[] {
  let x = seed;
  const chunks: Buffer[] = [];
  let i = 0;
  while (i < buf.length) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const size = 1 + ((x >>> 0) % max);
    chunks.push(buf.subarray(i, i + size));
    i += size;
  }
  return chunks;
}

const cases = [
  {
    file: 'anthropic-messages/stream-thinking.sse',
    check(events: WireEvent[], raw: string) {
      const names = [...raw.matchAll(/^event: (.*)$/gm)].map((m) => m[1]);
      expect(events.map((e) => e.event)).to.deep.equal(names);
      expect(events[0].event).to.equal('message_start');
      expect(events.at(-1)?.event).to.equal('message_stop');
      // Multi-byte characters survive byte splits.
      expect(events.map((e) => e.data).join('')).to.contain('×').and.to.contain('—');
    },
  },
  {
    file: 'openai-responses/stream-basic.sse',
    check(events: WireEvent[], raw: string) {
      const names = [...raw.matchAll(/^event: (.*)$/gm)].map((m) => m[1]);
      expect(events.map((e) => e.event)).to.deep.equal(names);
      expect(events.at(-1)?.event).to.equal('response.completed');
    },
  },
  {
    file: 'gemini/stream-basic.sse',
    check(events: WireEvent[]) {
      expect(events).to.have.length(2);
      expect(events.every((e) => e.event === undefined)).to.equal(true);
      const texts = events.map((e) => (JSON.parse(e.data) as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> }).candidates[0].content.parts[0].text);
      expect(texts.join('')).to.equal('Hello, nice to meet you!');
    },
  },
];

describe('createSseParser', () => {
  for (const { file, check } of cases) {
    describe(file, () => {
      const bytes = readFileSync(`${FIXTURES}/${file}`);
      const reference = parseChunks([bytes]);

      it('parses the whole body into events whose data is JSON', () => {
        check(reference, bytes.toString('utf8'));
        for (const e of reference) expect(() => JSON.parse(e.data), e.data).not.to.throw();
        expect(reference.map((e) => e.data).join('')).not.to.contain('\r');
      });

      it('gives the same events for every two-way split position', () => {
        for (let k = 0; k <= bytes.length; k += 1) {
          const events = parseChunks([bytes.subarray(0, k), bytes.subarray(k)]);
          expect(events, `split at ${k}`).to.deep.equal(reference);
        }
      });

      it('gives the same events in 1-byte, 7-byte and random chunks', () => {
        expect(parseChunks(splitEvery(bytes, 1))).to.deep.equal(reference);
        expect(parseChunks(splitEvery(bytes, 7))).to.deep.equal(reference);
        for (let seed = 1; seed <= 20; seed += 1) {
          expect(parseChunks(splitRandom(bytes, seed * 7919, 64)), `seed ${seed}`).to.deep.equal(reference);
        }
      });
    });
  }

  it('decodes a multi-byte character split across chunks', () => {
    const bytes = Buffer.from('data: héllo 世界 🎉\n\n', 'utf8');
    for (let k = 0; k <= bytes.length; k += 1) {
      expect(parseChunks([bytes.subarray(0, k), bytes.subarray(k)])).to.deep.equal([{ data: 'héllo 世界 🎉' }]);
    }
    expect(parseChunks(splitEvery(bytes, 1))).to.deep.equal([{ data: 'héllo 世界 🎉' }]);
  });

  it('accepts LF, CRLF and CR-only line endings, including a CR at a chunk end followed by LF', () => {
    const expected = [{ event: 'a', data: '1' }, { data: '2' }];
    expect(parseChunks(['event: a\ndata: 1\n\ndata: 2\n\n'])).to.deep.equal(expected);
    expect(parseChunks(['event: a\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n'])).to.deep.equal(expected);
    expect(parseChunks(['event: a\rdata: 1\r\rdata: 2\r\r'])).to.deep.equal(expected);
    expect(parseChunks(['event: a\r', '\ndata: 1\r', '\n\r', '\ndata: 2\r', '\n\r', '\n'])).to.deep.equal(expected);
    // A CR at a chunk end followed by something other than LF still ends the line.
    expect(parseChunks(['event: a\r', 'data: 1\r', '\r', 'data: 2\r\r'])).to.deep.equal(expected);
  });

  it('joins data lines with LF and removes one space after the colon only', () => {
    expect(parseChunks(['data: a\ndata:b\ndata:  c\ndata\n\n'])).to.deep.equal([{ data: 'a\nb\n c\n' }]);
  });

  it('ignores comments, id, retry, unknown fields and a leading BOM', () => {
    const body = '\uFEFF: keep-alive\nid: 7\nretry: 1000\nfoo: bar\nevent: x\ndata: {"a":1}\n\n:ping\n\n';
    expect(parseChunks([body])).to.deep.equal([{ event: 'x', data: '{"a":1}' }]);
    const bytes = Buffer.from(body, 'utf8');
    expect(parseChunks(splitEvery(bytes, 1))).to.deep.equal([{ event: 'x', data: '{"a":1}' }]);
  });

  it('does not dispatch events without data lines, and resets the event name after each dispatch', () => {
    expect(parseChunks(['event: lonely\n\ndata: 1\n\n'])).to.deep.equal([{ data: '1' }]);
    expect(parseChunks(['data:\n\n'])).to.deep.equal([{ data: '' }]);
  });

  it('returns events from push as soon as their blank line arrives', () => {
    const parser = createSseParser();
    expect(parser.push('data: 1\n')).to.deep.equal([]);
    expect(parser.push('\ndata: 2')).to.deep.equal([{ data: '1' }]);
    expect(parser.push('\n\n')).to.deep.equal([{ data: '2' }]);
    expect(parser.end()).to.deep.equal([]);
  });

  it('dispatches a final event without a trailing blank line on end()', () => {
    expect(parseChunks(['event: last\ndata: {"done":true}'])).to.deep.equal([{ event: 'last', data: '{"done":true}' }]);
    expect(parseChunks(['data: x\n'])).to.deep.equal([{ data: 'x' }]);
  });

  it('handles a very long line delivered in 1-byte chunks in linear time', () => {
    const payload = 'x'.repeat(300_000);
    const parser = createSseParser();
    const out: WireEvent[] = [];
    const started = Date.now();
    out.push(...parser.push('data: '));
    for (let i = 0; i < payload.length; i += 1) out.push(...parser.push(payload[i]));
    out.push(...parser.push('\n\n'));
    expect(out).to.have.length(1);
    expect(out[0].data.length).to.equal(payload.length);
    expect(Date.now() - started).to.be.below(5000);
  });
});

describe('createSseParser: an event with no end in sight', () => {
  it('throws GW_UPSTREAM_BAD_RESPONSE once one line or event passes the bound, instead of holding it all', () => {
    const parser = createSseParser();
    const megabyte = 'x'.repeat(1024 * 1024);
    parser.push('data: ');
    let caught: unknown;
    try {
      for (let i = 0; i < 40; i += 1) parser.push(megabyte);
    } catch (error) {
      caught = error;
    }
    expect(caught).to.have.property('code', 'GW_UPSTREAM_BAD_RESPONSE');
    expect(String((caught as Error).message)).to.include('exceeds 32 MB');
    // Many short data lines of one event count too.
    const lines = createSseParser();
    expect(() => {
      for (let i = 0; i < 40; i += 1) lines.push(`data: ${megabyte}\n`);
    }).to.throw(/exceeds 32 MB/);
  });
});
