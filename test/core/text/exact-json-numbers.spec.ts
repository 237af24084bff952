import { expect } from 'chai';
import { EXACT_JSON_NUMBERS, mayBeInexact, withExactToolNumbers } from '../../../core/text/exact-json-numbers';

const BIG = '12345678901234567890';

describe('mayBeInexact', () => {
  it('flags integers past 2^53 and values printed with more than 15 significant digits', () => {
    for (const inexact of [12345678901234567890, 2 ** 53, -(2 ** 60), 0.12345678901234568, 1.2345678901234567e-7, 1e21]) expect(mayBeInexact(inexact), String(inexact)).to.equal(true);
  });
  it('passes integers within 2^53 and short decimals, which read back as written', () => {
    for (const exact of [0, -1, 2 ** 53 - 1, 0.1, 0.3, 123.456, 1e-7, 99999999999999.9]) expect(mayBeInexact(exact), String(exact)).to.equal(false);
  });
});

describe('withExactToolNumbers', () => {
  before(function () {
    // npm test runs with --harmony-json-parse-with-source (.mocharc.json), as npm start does.
    if (!EXACT_JSON_NUMBERS) throw new Error('this Node has no JSON.parse source access: run through npm test');
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

  it("'whole': every number of the text is a tool's, at any depth, in arrays too", () => {
    const text = `{"a":[${BIG},{"b":-${BIG}}],"c":1.0,"d":0.1}`;
    expect(JSON.stringify(exact(text, 'whole'))).to.equal(text);
  });
});
