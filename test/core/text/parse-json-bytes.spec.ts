import { expect } from 'chai';
import { buildBody } from '../../../bench/bodies';
import { parseJsonBytes } from '../../../core/text/parse-json-bytes';
import { watchJsonParse } from '../../helpers/json-parse-spy';

/** What parseJsonBytes must match: the value, or the error, of one JSON.parse of the whole text. */
function parsedWhole(bytes: Buffer): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(bytes.toString('utf8')) };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

function parsedInPieces(bytes: Buffer): { value?: unknown; error?: string } {
  try {
    return { value: parseJsonBytes(bytes) };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

function expectSameAsWhole(bytes: Buffer): void {
  const whole = parsedWhole(bytes);
  const pieces = parsedInPieces(bytes);
  expect(pieces).to.deep.equal(whole);
  // deep.equal ignores key order; JSON.parse's order is part of the value (it is what a re-serialization sends).
  if (whole.value !== undefined) expect(JSON.stringify(pieces.value)).to.equal(JSON.stringify(whole.value));
}

/** The lengths of the texts JSON.parse was given while `run` ran. */
function textsParsed(run: () => void): number[] {
  const watch = watchJsonParse();
  try {
    run();
  } finally {
    watch.stop();
  }
  return watch.lengths;
}

/** A long conversation: `turns` messages of about `chars` characters each, from `piece`. */
function conversation(turns: number, chars: number, piece = 'Tell me more about café culture, 😀 "quoted" \\ back. '): Record<string, unknown> {
  const content = piece.repeat(Math.ceil(chars / piece.length)).slice(0, chars);
  return {
    model: 'some-model',
    messages: Array.from({ length: turns }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `${i}: ${content}` })),
    stream: false,
    temperature: 0.5,
  };
}

/** A deterministic pseudo-random source, so that a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A random JSON value of roughly `budget` bytes, with long arrays, nested objects and every kind of scalar. */
function randomValue(next: () => number, budget: number, depth = 0): unknown {
  const pick = next();
  if (budget < 64 || depth > 6 || pick < 0.15) {
    const scalars = [
      () => Math.floor(next() * 1e6) - 5e5,
      () => next() * 1e-3,
      () => -1.5e300,
      () => true,
      () => false,
      () => null,
      () => 'x'.repeat(Math.floor(next() * 40)),
      () => 'é\\"😀\u0001\u2028 \t'.repeat(Math.floor(next() * 8)),
      () => '',
    ];
    return scalars[Math.floor(next() * scalars.length)]();
  }
  if (pick < 0.55) {
    const count = 1 + Math.floor(next() * 40);
    return Array.from({ length: count }, () => randomValue(next, budget / count, depth + 1));
  }
  const count = 1 + Math.floor(next() * 12);
  const object: Record<string, unknown> = {};
  for (let i = 0; i < count; i += 1) {
    const keys = ['role', 'content', 'parts', 'k\\"ey', 'ключ', `k${i}`, 'messages', '__proto__', 'constructor'];
    Object.defineProperty(object, keys[Math.floor(next() * keys.length)], {
      value: randomValue(next, budget / count, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

describe('parseJsonBytes', () => {
  for (const format of ['chat-completions', 'messages', 'gemini'] as const) {
    it(`parses the benchmark's 200 KB ${format} conversation as JSON.parse does, in pieces of at most 32 KB`, () => {
      const bytes = buildBody(format, 'large', 'json');
      let value: unknown;
      const lengths = textsParsed(() => {
        value = parseJsonBytes(bytes);
      });
      expect(JSON.stringify(value)).to.equal(JSON.stringify(JSON.parse(bytes.toString('utf8'))));
      expect(lengths.length).to.be.greaterThan(5);
      expect(Math.max(...lengths)).to.be.at.most(32 * 1024 + 2);
    });
  }

  it('parses a small body in one JSON.parse', () => {
    const bytes = Buffer.from(JSON.stringify(conversation(10, 100)));
    const lengths = textsParsed(() => parseJsonBytes(bytes));
    expect(lengths).to.deep.equal([bytes.toString('utf8').length]);
  });

  it('splits a long array inside a large message (content blocks) as well', () => {
    const body = {
      model: 'm',
      messages: [{ role: 'user', content: Array.from({ length: 3000 }, (_, i) => ({ type: 'text', text: `block ${i} ${'z'.repeat(40)}` })) }],
    };
    const bytes = Buffer.from(JSON.stringify(body));
    expectSameAsWhole(bytes);
    const lengths = textsParsed(() => parseJsonBytes(bytes));
    expect(lengths.length).to.be.greaterThan(5);
    expect(Math.max(...lengths)).to.be.at.most(32 * 1024 + 2);
  });

  /** Valid bodies: the same value as JSON.parse, and whether it comes in pieces (at most 32 KB of text each). */
  const valid: Array<[string, () => string, 'in pieces' | 'whole']> = [
    ['pretty-printed, with every kind of whitespace', () => JSON.stringify(conversation(300, 600), null, '\t ').replace(/\n/g, '\r\n'), 'in pieces'],
    ['a top-level array', () => JSON.stringify(conversation(300, 600).messages), 'in pieces'],
    ['whitespace before and after the body', () => `\r\n ${JSON.stringify(conversation(300, 600).messages)}\n\t `, 'in pieces'],
    ['two-byte text (CJK)', () => JSON.stringify(conversation(200, 500, '漢字とかな、кириллица. ')), 'in pieces'],
    ['escaped quotes and backslashes everywhere', () => JSON.stringify(conversation(400, 300, '\\\\"\\"\\')), 'in pieces'],
    ['keys with escapes and non-ASCII', () => JSON.stringify({ 'k\\"e\u00e9y': conversation(200, 600).messages, ключ: 1 }), 'in pieces'],
    ['a large __proto__ member (an own property, as JSON.parse makes it)', () => `{"__proto__":${JSON.stringify(conversation(200, 600).messages)},"a":1}`, 'in pieces'],
    ['a small __proto__ member beside a large one', () => `{"__proto__":{"x":1},"m":${JSON.stringify(conversation(200, 600).messages)}}`, 'in pieces'],
    ['numbers, literals and empty containers in a long array', () => JSON.stringify(Array.from({ length: 20_000 }, (_, i) => [i * 1.5, -0, 1e21, true, null, false, [], {}][i % 8])), 'in pieces'],
    ['a duplicate key holding the large value', () => `{"messages":${JSON.stringify(conversation(200, 600).messages)},"messages":[1]}`, 'whole'],
    ['a duplicate key, the large value last', () => `{"messages":[1],"a":2,"messages":${JSON.stringify(conversation(200, 600).messages)}}`, 'whole'],
    ['a single string of 200 KB', () => JSON.stringify('long '.repeat(40_000)), 'whole'],
    ['large values nested deeper than four levels', () => JSON.stringify({ a: { b: { c: { d: { e: { f: conversation(150, 600) } } } } } }), 'whole'],
  ];
  for (const [name, text, how] of valid) {
    it(`gives what JSON.parse gives, ${how}: ${name}`, () => {
      const bytes = Buffer.from(text());
      expectSameAsWhole(bytes);
      const longest = Math.max(...textsParsed(() => parseJsonBytes(bytes)));
      if (how === 'in pieces') expect(longest).to.be.at.most(32 * 1024 + 2);
      else expect(longest).to.be.greaterThan(64 * 1024);
    });
  }

  /** Invalid bodies: JSON.parse's own error, whatever the scan made of them. */
  const invalid: Array<[string, () => string]> = [
    ['a BOM before the body', () => `\uFEFF${JSON.stringify(conversation(200, 600))}`],
    ['a trailing comma in the long array', () => JSON.stringify(conversation(200, 600)).replace(/\}\],"stream"/, '},],"stream"')],
    ['a missing comma between elements', () => JSON.stringify(conversation(200, 600)).replace('},{', '}{')],
    ['trailing text after the body', () => `${JSON.stringify(conversation(200, 600))} x`],
    ['two bodies one after the other', () => `${JSON.stringify(conversation(200, 600))}{}`],
    ['two arrays one after the other', () => `${JSON.stringify(conversation(200, 600).messages)}[1]`],
    ['an empty array, then more than 32 KB before a bracket', () => `[]${' '.repeat(70_000)}]`],
    ['a truncated body', () => JSON.stringify(conversation(200, 600)).slice(0, -3)],
    ['mismatched brackets', () => JSON.stringify(conversation(200, 600)).replace(/\}\],"stream"/, '}},"stream"')],
    ['a raw control character in a string', () => JSON.stringify(conversation(200, 600)).replace('café', 'caf\u0001')],
    ['an invalid literal in a long array', () => `[${'1,'.repeat(40_000)}tru]`],
    ['a key without its colon', () => JSON.stringify(conversation(200, 600)).replace('"role":', '"role" ')],
  ];
  for (const [name, text] of invalid) {
    it(`throws what JSON.parse throws: ${name}`, () => {
      const bytes = Buffer.from(text());
      expect(parsedWhole(bytes).error).to.be.a('string');
      expectSameAsWhole(bytes);
    });
  }

  it('decodes invalid UTF-8 as toString does, with U+FFFD', () => {
    const bytes = Buffer.from(JSON.stringify(conversation(200, 600)));
    for (let i = 1000; i < bytes.length; i += 997) if (bytes[i] > 0x7f || /[a-z]/.test(String.fromCharCode(bytes[i]))) bytes[i] = 0xff;
    expectSameAsWhole(bytes);
  });

  it('matches JSON.parse on random large values and on random corruptions of them', function () {
    this.timeout(60_000);
    const next = random(20261122);
    let split = 0;
    for (let round = 0; round < 60; round += 1) {
      const value = randomValue(next, 70_000 + next() * 150_000);
      const text = JSON.stringify(value, null, next() < 0.3 ? 1 : undefined);
      const bytes = Buffer.from(text);
      expectSameAsWhole(bytes);
      if (bytes.length >= 64 * 1024) split += 1;
      for (let k = 0; k < 5; k += 1) {
        const broken = Buffer.from(bytes);
        const at = Math.floor(next() * broken.length);
        broken[at] = '{}[]",: \\0a-'.charCodeAt(Math.floor(next() * 13));
        expectSameAsWhole(broken);
      }
    }
    expect(split).to.be.greaterThan(20);
  });
});
