import { expect } from 'chai';
import { createMessagesStreamEncoder } from '../../../../core/codecs/messages/create-messages-stream-encoder';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import { areArgumentsWhole, createArgumentsFollower, parseToolCallArguments, readToolCallArguments } from '../../../../core/codecs/shared/parse-tool-call-arguments';

describe('parseToolCallArguments', () => {
  it('parses a JSON object and treats empty text as {}, losing nothing', () => {
    const losses: string[] = [];
    const lost = () => losses.push('lost');
    expect(parseToolCallArguments('{"a":[1,2]}', lost)).to.deep.equal({ a: [1, 2] });
    expect(parseToolCallArguments('', lost)).to.deep.equal({});
    expect(parseToolCallArguments('  ', lost)).to.deep.equal({});
    expect(losses).to.deep.equal([]);
  });

  for (const text of ['{"path":"a.ts","content":"lorem ip', '[1]', '"s"', 'null']) {
    it(`sends ${text} (not a JSON object) as {} and reports the loss`, () => {
      let lost = 0;
      expect(parseToolCallArguments(text, () => (lost += 1))).to.deep.equal({});
      expect(lost).to.equal(1);
    });
  }
});

/** How many times `run` calls JSON.parse: the cost of a wholeness check, counted rather than timed. */
function countParses(run: () => void): number {
  const parse = JSON.parse;
  let parses = 0;
  JSON.parse = ((...given: Parameters<typeof JSON.parse>) => {
    parses += 1;
    return parse(...given);
  }) as typeof JSON.parse;
  try {
    run();
  } finally {
    JSON.parse = parse;
  }
  return parses;
}

describe('the depth limit on tool-call arguments', () => {
  const deep = (levels: number): string => '{"x":'.repeat(levels) + '1' + '}'.repeat(levels);

  it("refuses a client's arguments nested past 128 levels with a 400 naming their field, and takes 128", () => {
    expect(() => parseToolCallArguments(deep(129), undefined, 'messages[1].content[0].arguments')).to.throw('messages[1].content[0].arguments: nested deeper than 128 levels of arrays and objects');
    expect(parseToolCallArguments(deep(128), undefined, 'messages[1].content[0].arguments')).to.have.property('x');
  });

  it("holds a model's own arguments in an answer (no field) to an answer's limit, 256 levels: past it a 502, where JSON.stringify overflowed (a 500)", () => {
    expect(readToolCallArguments(deep(256)).args).to.have.property('x');
    const error = (() => {
      try {
        readToolCallArguments(deep(5000));
      } catch (caught) {
        return caught;
      }
    })();
    expect(isGatewayError(error) && error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    expect((error as Error).message).to.equal('upstream answered a tool call whose arguments nest deeper than 256 levels of arrays and objects');
  });
});

describe('createArgumentsFollower', () => {
  it('fails arguments that grow past the 32 MB event bound (an upstream that never ends them), before holding them', () => {
    const follower = createArgumentsFollower('{"content":"');
    const megabyte = 'a'.repeat(1024 * 1024);
    for (let i = 1; i < 32; i++) follower.push(megabyte);
    expect(() => follower.push(megabyte)).to.throw(/upstream tool call arguments exceeds 32 MB/);
    expect(follower.text.length).to.equal(31 * megabyte.length + 12);
  });

  const samples = [
    '{"file_path":"/tmp/a.js","content":"function f() { return {a: [1, 2]}; }\\n"}',
    '{"a":"quote \\" and backslash \\\\ and } ] inside"}',
    ' {"nested":{"deep":[{"x":1},{"y":"}"}]}} ',
    '[1,2,{"a":3}]',
    '{"a":1} trailing',
    '{"a":}',
    '"a string"',
    '"a \\"quoted\\" string" x',
    '42',
    'true',
    '',
  ];
  it('says whether the arguments are whole after every delta exactly as areArgumentsWhole does', () => {
    for (const sample of samples) {
      for (const size of [1, 3, 7]) {
        const follower = createArgumentsFollower();
        for (let at = 0; at < sample.length; at += size) {
          follower.push(sample.slice(at, at + size));
          const sofar = sample.slice(0, Math.min(sample.length, at + size));
          expect(follower.whole(), `${JSON.stringify(sample)} after ${JSON.stringify(sofar)}`).to.equal(areArgumentsWhole(sofar));
          expect(follower.text).to.equal(sofar);
        }
      }
      expect(createArgumentsFollower(sample).whole(), sample).to.equal(areArgumentsWhole(sample));
    }
  });

  it('parses the arguments once they close, not on every delta (every delta was quadratic on a large file written)', () => {
    const args = JSON.stringify({ file_path: '/tmp/big.js', content: 'x = { a: 1 };\n'.repeat(2000) });
    const encoder = createMessagesStreamEncoder({ model: 'm', system: [], stream: true, tools: [{ name: 'Write', parameters: { type: 'object' } }] });
    const parses = countParses(() => {
      encoder.push({ type: 'start', id: 'm1', model: 'm', created: 1 });
      encoder.push({ type: 'tool_call_start', index: 0, id: 'call_1', name: 'Write' });
      for (let at = 0; at < args.length; at += 4) encoder.push({ type: 'tool_call_delta', index: 0, argumentsDelta: args.slice(at, at + 4) });
    });
    expect(args.length / 4).to.be.above(5000);
    expect(parses).to.be.below(50);
  });

  it('parses no more per delta for arguments that are no object: a string once it closes, other text not past a scalar\'s length', () => {
    const parses = countParses(() => {
      for (const start of ['"', '\u00a0{"a":"']) {
        const follower = createArgumentsFollower(start);
        for (let i = 0; i < 5_000; i += 1) {
          follower.push('xxxx');
          follower.whole();
        }
      }
    });
    expect(parses).to.be.below(50);
  });
});
