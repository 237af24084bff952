import { expect } from 'chai';
import { encodeGeminiSchema } from '../../../../core/codecs/gemini/encode-gemini-schema';
import { encodeTools } from '../../../../core/codecs/gemini/encode-tools';

describe('encodeGeminiSchema', () => {
  it('merges a long allOf in one pass, its properties and required names in order, a `__proto__` property kept as one', () => {
    const allOf = Array.from({ length: 2000 }, (_, i) => ({ properties: { [`p${i}`]: { type: 'string' } }, required: [`p${i}`] }));
    allOf.push(JSON.parse('{"properties":{"__proto__":{"type":"number"}}}') as (typeof allOf)[number]);
    const pruned = encodeGeminiSchema({ type: 'object', allOf }) as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(pruned.properties)).to.have.length(2001);
    expect(Object.keys(pruned.properties).slice(0, 2)).to.deep.equal(['p0', 'p1']);
    expect(Object.getOwnPropertyDescriptor(pruned.properties, '__proto__')?.value).to.deep.equal({ type: 'number' });
    expect(Object.getPrototypeOf(pruned.properties)).to.equal(Object.prototype);
    expect(pruned.required.slice(-2)).to.deep.equal(['p1998', 'p1999']);
  });

  it('counts merged allOf items against the node limit: a longer allOf than a schema prunes is sent whole', () => {
    // Items that merge into one node: uncounted, the merge ran however many there were (and for every $ref to them).
    const allOf = Array.from({ length: 6000 }, () => ({ description: 'd' }));
    expect(encodeGeminiSchema({ type: 'object', allOf })).to.equal(undefined);
    expect(encodeGeminiSchema({ type: 'object', allOf: allOf.slice(0, 100) })).to.deep.equal({ type: 'object', description: 'd' });
  });

  it('gives up on a schema whose $refs would inline past the node limit (each def naming the next twice doubled it, out of memory)', () => {
    const defs: Record<string, unknown> = { d30: { type: 'string' } };
    for (let i = 0; i < 30; i += 1) defs[`d${i}`] = { type: 'object', properties: { x: { $ref: `#/$defs/d${i + 1}` }, y: { $ref: `#/$defs/d${i + 1}` } } };
    const schema = { type: 'object', properties: { root: { $ref: '#/$defs/d0' } }, $defs: defs };
    expect(encodeGeminiSchema(schema)).to.equal(undefined);
    // The tool then goes whole, where Gemini reads $refs itself.
    const { tools } = encodeTools({ model: 'gemini-2.5-flash', system: [], messages: [], stream: false, tools: [{ name: 'f', parameters: schema }] }, new Set(), [], undefined);
    expect(tools?.[0]).to.deep.equal({ functionDeclarations: [{ name: 'f', parametersJsonSchema: schema }] });
  });

  it('gives up on a schema whose $refs would copy too much text (a long description named by thousands of properties)', () => {
    const properties = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`p${i}`, { $ref: '#/$defs/D' }]));
    const schema = { type: 'object', properties, $defs: { D: { type: 'string', description: 'x'.repeat(50_000) } } };
    expect(encodeGeminiSchema(schema)).to.equal(undefined);
    // The same schema with a short description is pruned as before.
    const small = { ...schema, $defs: { D: { type: 'string', description: 'x' } } };
    expect(Object.keys(encodeGeminiSchema(small)?.properties as object)).to.have.length(2_000);
  });

  it('takes each of a node\'s types once (repeated ones multiplied every level below)', () => {
    expect(encodeGeminiSchema({ type: 'object', properties: { a: { type: ['string', 'string', 'null'] } } })).to.deep.equal({ type: 'object', properties: { a: { type: 'string', nullable: true } } });
  });

  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['keeps the subset as it is', { type: 'string', description: 'd', title: 't', enum: ['a', 'b'] }, { type: 'string', title: 't', description: 'd', enum: ['a', 'b'] }],
    ['["string","null"] → nullable', { type: ['string', 'null'] }, { type: 'string', nullable: true }],
    ['several types → anyOf', { type: ['string', 'integer'] }, { anyOf: [{ type: 'string' }, { type: 'integer' }] }],
    [
      'several types → one branch per type with its own keywords (an ARRAY branch keeps its items)',
      { type: ['string', 'array', 'null'], items: { type: 'string' }, description: 'one path or a list', minItems: 1 },
      { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, minItems: 1 }], description: 'one path or a list', nullable: true },
    ],
    ['an array branch without items gets the empty items schema', { type: ['integer', 'array'] }, { anyOf: [{ type: 'integer' }, { type: 'array', items: {} }] }],
    ['an empty enum value (which Gemini refuses) is left out; null makes it nullable', { type: 'string', enum: ['', 'html', 'md', null] }, { type: 'string', nullable: true, enum: ['html', 'md'] }],
    ['an enum of only the empty string is dropped, as is an empty const', { type: 'string', enum: [''], properties: undefined }, { type: 'string' }],
    ['an empty const is dropped', { type: 'string', const: '' }, { type: 'string' }],
    ['anyOf [X, null] (Pydantic Optional) → X nullable, outer description kept', { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'n', default: null }, { type: 'integer', description: 'n', nullable: true }],
    ['oneOf → anyOf', { oneOf: [{ type: 'string' }, { type: 'number', minimum: 1 }] }, { anyOf: [{ type: 'string' }, { type: 'number', minimum: 1 }] }],
    ['const string → one-value enum', { const: 'x' }, { type: 'string', enum: ['x'] }],
    ['const number is dropped', { type: 'number', const: 3 }, { type: 'number' }],
    ['non-string enum is dropped', { type: 'integer', enum: [1, 2] }, { type: 'integer' }],
    ['drops JSON-Schema-only keywords', { type: 'string', pattern: '^a', minLength: 1, default: 'a', examples: ['a'], $comment: 'c' }, { type: 'string' }],
    ['keeps only formats Gemini takes', { type: 'string', format: 'email' }, { type: 'string' }],
    ['keeps date-time', { type: 'string', format: 'date-time' }, { type: 'string', format: 'date-time' }],
    ['keeps int64 on integers', { type: 'integer', format: 'int64', minimum: 0, maximum: 9 }, { type: 'integer', format: 'int64', minimum: 0, maximum: 9 }],
    ['array items, minItems, maxItems', { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true }, { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 }],
    ['tuple items → the first', { type: 'array', items: [{ type: 'string' }, { type: 'number' }] }, { type: 'array', items: { type: 'string' } }],
    ['infers object from properties; required filtered to known properties', { properties: { a: { type: 'string' } }, required: ['a', 'b'], additionalProperties: false }, { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }],
    ['empty properties are dropped', { type: 'object', properties: {} }, { type: 'object' }],
    ['allOf is merged', { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'number' } } }] }, { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] }],
    [
      'local $ref is inlined; a recursive one ends as an object',
      {
        type: 'object',
        properties: { node: { $ref: '#/$defs/Node', description: 'root' } },
        $defs: { Node: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/Node' } } } },
      },
      {
        type: 'object',
        properties: {
          node: { type: 'object', description: 'root', properties: { name: { type: 'string' }, child: { type: 'object' } } },
        },
      },
    ],
    ['uppercase OpenAPI types become lowercase', { type: 'OBJECT', properties: { s: { type: 'STRING' } } }, { type: 'object', properties: { s: { type: 'string' } } }],
    ['propertyOrdering keeps known names', { type: 'object', properties: { a: { type: 'string' } }, propertyOrdering: ['a', 'zz'] }, { type: 'object', properties: { a: { type: 'string' } }, propertyOrdering: ['a'] }],
  ];
  for (const [what, input, expected] of cases) {
    it(what, () => {
      expect(encodeGeminiSchema(input)).to.deep.equal(expected);
    });
  }
});
