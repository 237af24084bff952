import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { createJsonArrayWriter } from '../../../core/sse/json-array-writer';
import { createJsonArrayOrObjectParser, createJsonArrayParser } from '../../../core/sse/parse-json-array';
import { FIXTURES_DIR } from '../../helpers/fixtures';

function parseChunks(chunks: Array<Buffer | string>): string[] {
  const parser = createJsonArrayParser();
  const out: string[] = [];
  for (const chunk of chunks) for (const e of parser.push(chunk)) out.push(e.data);
  for (const e of parser.end()) out.push(e.data);
  return out;
}

function splitEvery(buf: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) chunks.push(buf.subarray(i, i + size));
  return chunks;
}

function expectBadResponse(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(isGatewayError(caught), String(caught)).to.equal(true);
  expect((caught as { code: string }).code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
}

describe('createJsonArrayParser', () => {
  const bytes = readFileSync(FIXTURES_DIR + '/gemini/stream-array.json');
  const fixture = JSON.parse(bytes.toString('utf8')) as unknown[];

  it('splits the Gemini stream-array fixture into its elements', () => {
    const elements = parseChunks([bytes]);
    expect(elements.map((e) => JSON.parse(e) as unknown)).to.deep.equal(fixture);
    // data is the element's exact text from the body
    for (const e of elements) expect(bytes.toString('utf8')).to.contain(e);
  });

  it('gives the same elements for every split position and in 1-byte and 7-byte chunks', () => {
    const reference = parseChunks([bytes]);
    for (let k = 0; k <= bytes.length; k += 1) {
      expect(parseChunks([bytes.subarray(0, k), bytes.subarray(k)]), `split at ${k}`).to.deep.equal(reference);
    }
    expect(parseChunks(splitEvery(bytes, 1))).to.deep.equal(reference);
    expect(parseChunks(splitEvery(bytes, 7))).to.deep.equal(reference);
  });

  it('round-trips with the writer, including strings holding brackets, braces, quotes and escapes', () => {
    const values: unknown[] = [
      { text: 'a ] b [ c } d { e' },
      { text: 'she said \\"hi\\" and left \\\\', nested: [[1, [2]], { k: '}' }] },
      { text: 'quote " and backslash \\ and both \\" end\\' },
      { text: 'ünïcødé 🎉 世界', n: -1.5e3, t: true, z: null },
      ['inner', ']'],
      'a bare string with ] and ,',
      42,
      null,
      false,
    ];
    const writer = createJsonArrayWriter();
    const body = Buffer.from(values.map((v) => writer.element(JSON.stringify(v))).join('') + writer.close(), 'utf8');
    const expected = values.map((v) => JSON.stringify(v));
    expect(parseChunks([body])).to.deep.equal(expected);
    for (let k = 0; k <= body.length; k += 1) {
      expect(parseChunks([body.subarray(0, k), body.subarray(k)]), `split at ${k}`).to.deep.equal(expected);
    }
    expect(parseChunks(splitEvery(body, 1))).to.deep.equal(expected);
  });

  it('returns elements from push as soon as they close', () => {
    const parser = createJsonArrayParser();
    expect(parser.push('[{"a":')).to.deep.equal([]);
    expect(parser.push('1}\r\n,\r\n{"b"')).to.deep.equal([{ data: '{"a":1}' }]);
    expect(parser.push(':2}\n]\n')).to.deep.equal([{ data: '{"b":2}' }]);
    expect(parser.end()).to.deep.equal([]);
  });

  it('accepts an empty array, a leading BOM and surrounding whitespace', () => {
    expect(parseChunks([' [ ] '])).to.deep.equal([]);
    expect(parseChunks(['\uFEFF[{"a":1}]'])).to.deep.equal(['{"a":1}']);
    expect(parseChunks([Buffer.from([0xef, 0xbb]), Buffer.from([0xbf]), '[1]'])).to.deep.equal(['1']);
  });

  it('throws GW_UPSTREAM_BAD_RESPONSE from end() when the array was not closed, worded as a cut SSE stream (it named the missing \']\')', () => {
    for (const body of ['', '[', '[{"a":1}', '[{"a":1},', '[{"a":"x]"}']) {
      const parser = createJsonArrayParser();
      parser.push(body);
      expectBadResponse(() => parser.end());
      expect(() => parser.end(), body).to.throw('upstream stream ended before the response was complete');
    }
  });

  it('throws GW_UPSTREAM_BAD_RESPONSE when the body is not an array', () => {
    expectBadResponse(() => createJsonArrayParser().push('{"error":{}}'));
    const parser = createJsonArrayParser();
    parser.push('[1]');
    expectBadResponse(() => parser.push(' x'));
  });

  describe('closeWith', () => {
    const ERROR = '{"error":{"code":502}}';
    const closing = (read: string): string | undefined => {
      const parser = createJsonArrayParser();
      parser.push(read);
      return parser.closeWith(ERROR);
    };

    it('ends what was read with one more element wherever an element may start, as valid JSON', () => {
      for (const read of ['', '[', ' [ ', '[{"a":1}', '[{"a":1} ', '[{"a":1},', '[{"a":"]}"},\r\n{"b":[2]}', '["s"', '[1,2,']) {
        const last = closing(read);
        expect(last, read).to.be.a('string');
        expect(JSON.parse(read + last!), read).to.be.an('array').with.property('length').above(0);
        expect(JSON.parse(read + last!).at(-1), read).to.deep.equal({ error: { code: 502 } });
      }
    });

    it('adds nothing to an array already closed, and cannot mend one cut inside an element', () => {
      expect(closing('[{"a":1}]')).to.equal('');
      for (const read of ['[{"a":1', '[{"a":"x}', '[{"a":{"b":1}', '["s']) expect(closing(read), read).to.equal(undefined);
    });
  });

  describe('close', () => {
    it('closes what was read as it stands, as valid JSON; not after a comma (an element is owed) nor inside an element', () => {
      const closed = (read: string): string | undefined => {
        const parser = createJsonArrayParser();
        parser.push(read);
        return parser.close();
      };
      for (const read of ['', '[', '[{"a":1}', '[{"a":1},\r\n{"b":2} ']) expect(JSON.parse(read + closed(read)!), read).to.be.an('array');
      expect(closed('[{"a":1}]')).to.equal('');
      for (const read of ['[{"a":1},', '[{"a":1}\r\n,', '[{"a":1']) expect(closed(read), read).to.equal(undefined);
    });
  });
});

describe('createJsonArrayParser: an element with no end in sight', () => {
  it('throws GW_UPSTREAM_BAD_RESPONSE once one element passes the bound, instead of holding it all', () => {
    const parser = createJsonArrayParser();
    parser.push('[{"a":"');
    const megabyte = 'x'.repeat(1024 * 1024);
    expect(() => {
      for (let i = 0; i < 40; i += 1) parser.push(megabyte);
    }).to.throw(/exceeds 32 MB/);
  });
});

describe('createJsonArrayOrObjectParser', () => {
  const run = (chunks: Array<Buffer | string>): string[] => {
    const parser = createJsonArrayOrObjectParser();
    const out = chunks.flatMap((chunk) => parser.push(chunk));
    return [...out, ...parser.end()].map((event) => event.data);
  };

  it('reads an array as the array parser does, element by element, whitespace and a BOM before it', () => {
    expect(run(['\ufeff  ', '[{"a":1}', ',{"b":2}]'])).to.deep.equal(['{"a":1}', '{"b":2}']);
  });

  it('reads a lone object (Gemini\'s error envelope in a 200) as one element, split anywhere, multi-byte characters too', () => {
    const text = '{"error":{"code":429,"message":"quota é"}}';
    const bytes = Buffer.from(`\n ${text}\n`);
    for (let cut = 1; cut < bytes.length; cut += 1) expect(run([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).to.deep.equal([text]);
  });

  it('leaves anything else to the array parser and its error; an object that is no error envelope is refused likewise', () => {
    expect(() => run(['"x"'])).to.throw(/expected '\['/);
    expect(() => run(['{"candidates":[]}'])).to.throw(/expected '\[' but got "\{"/);
  });

  it('says a lone object cut short (no JSON) is a stream that ended early, not that it is no array', () => {
    for (const body of ['{"error":{"code":429', '{"candidates":[{"content":']) {
      expect(() => run([body]), body).to.throw('upstream stream ended before the response was complete');
    }
  });
});
