import { expect } from 'chai';
import { EXACT_JSON_NUMBERS, mayBeInexact, withExactToolNumbers } from '../../../core/text/exact-json-numbers';

const BIG = '12345678901234567890';

describe('mayBeInexact', () => {
  it('flags integers past 2^53 and numbers too large for a double (read as Infinity)', () => {
    for (const inexact of [12345678901234567890, 2 ** 53, -(2 ** 60), 1e21, Infinity, -Infinity]) expect(mayBeInexact(inexact), String(inexact)).to.equal(true);
  });
  it('passes integers within 2^53 and decimals (cheap enough for every number of every tool call)', () => {
    for (const exact of [0, -1, 2 ** 53 - 1, 0.1, 0.30000000000000004, 123.456, 1e-7]) expect(mayBeInexact(exact), String(exact)).to.equal(false);
  });
});

describe('withExactToolNumbers', () => {
  it('is on for this Node (20: turned on at run time, no command-line flag)', () => {
    expect(EXACT_JSON_NUMBERS).to.equal(true);
  });
  const exact = (text: string, places?: 'whole'): unknown => withExactToolNumbers(JSON.parse(text) as unknown, text, places);

  it('keeps the digits of a Messages tool_use input and of Gemini functionCall args and functionResponse response', () => {
    const messages = `{"content":[{"type":"tool_use","id":"t","name":"f","input":{"id":${BIG},"n":[0.12345678901234567890,1.0]}}]}`;
    expect(JSON.stringify(exact(messages))).to.equal(messages);
    const gemini = `{"contents":[{"parts":[{"functionCall":{"name":"f","args":{"id":${BIG}}}},{"functionResponse":{"name":"f","response":{"id":${BIG}}}}]}]}`;
    expect(JSON.stringify(exact(gemini))).to.equal(gemini);
    // The text may come as the bytes read.
    expect(JSON.stringify(withExactToolNumbers(JSON.parse(gemini) as unknown, Buffer.from(gemini)))).to.equal(gemini);
  });

  it('leaves numbers outside tool values numbers, however long (the codecs read them)', () => {
    const text = `{"usage":{"n":${BIG},"p":0.30000000000000004},"content":[{"type":"tool_use","name":"f","input":{"id":${BIG}}}],"logprob":-0.12345678901234567890}`;
    const value = exact(text) as { usage: { n: unknown; p: unknown }; logprob: unknown };
    expect(value.usage.n).to.be.a('number');
    expect(value.usage.p).to.equal(0.30000000000000004);
    expect(value.logprob).to.be.a('number');
    expect(JSON.stringify(value)).to.include(`"input":{"id":${BIG}}`);
  });

  it('returns the parsed tree itself when no tool value holds a number that may be inexact (no second parse)', () => {
    const text = `{"usage":{"n":${BIG}},"content":[{"type":"tool_use","name":"f","input":{"id":42,"s":"${BIG}"}}],"args":{"x":${BIG}}}`;
    const parsed = JSON.parse(text) as unknown;
    expect(withExactToolNumbers(parsed, text)).to.equal(parsed);
  });

  it("'whole': every number of the text is a tool's, at any depth, in arrays too; one needing it keeps the others' digits", () => {
    const text = `{"a":[${BIG},{"b":-${BIG}}],"c":1.0,"d":0.1,"e":1.00000000000000001,"f":1e400}`;
    expect(JSON.stringify(exact(text, 'whole'))).to.equal(text);
  });

  it('keeps a bare number as a number where an object belongs (a tool value, a whole text), for the schemas to judge', () => {
    expect(exact(BIG, 'whole')).to.be.a('number');
    const value = exact(`{"content":[{"type":"tool_use","name":"f","input":${BIG}}],"contents":[{"parts":[{"functionResponse":{"name":"f","response":${BIG}}}]}],"x":[{"type":"tool_use","name":"f","input":{"id":${BIG}}}]}`) as {
      content: Array<{ input: unknown }>;
      contents: Array<{ parts: Array<{ functionResponse: { response: unknown } }> }>;
    };
    expect(value.content[0].input).to.be.a('number');
    expect(value.contents[0].parts[0].functionResponse.response).to.be.a('number');
  });

  it('a number too large for a double keeps its digits inside a tool value (it was null)', () => {
    const text = '{"type":"tool_use","name":"f","input":{"x":1e400}}';
    expect(JSON.stringify(exact(`{"content":[${text}]}`))).to.equal(`{"content":[${text}]}`);
  });
});
