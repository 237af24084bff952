import { expect } from 'chai';
import { encodeOutputSchema } from '../../../../core/codecs/messages/encode-output-schema';

describe('encodeOutputSchema', () => {
  it('closes every object that lists its properties and drops Gemini propertyOrdering, leaving the input unchanged', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } },
        either: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'null' }] },
        open: { type: 'object', additionalProperties: true },
      },
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } },
      required: ['name'],
      propertyOrdering: ['name', 'tags'],
    };
    const copy = structuredClone(schema);
    expect(encodeOutputSchema(schema)).to.deep.equal({
      type: 'object',
      properties: {
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: false } },
        either: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, { type: 'null' }] },
        open: { type: 'object', properties: {}, additionalProperties: false, description: '{additionalProperties: true}' },
      },
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } }, additionalProperties: false } },
      required: ['name'],
      additionalProperties: false,
    });
    expect(schema).to.deep.equal(copy);
  });

  it('says in the description what Anthropic refuses (numeric and length limits, minItems over 1, other formats, maps), as its SDK does', () => {
    const schema = {
      type: 'object',
      properties: {
        age: { type: 'integer', minimum: 0, maximum: 150 },
        name: { type: 'string', maxLength: 40, format: 'hostname', description: 'host' },
        code: { type: 'string', format: 'int32', pattern: '^[0-9]+$' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
        one: { type: 'array', items: { type: 'string' }, minItems: 1 },
        extra: { type: 'object', additionalProperties: { type: 'string' } },
        either: { oneOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['age'],
      additionalProperties: false,
    };
    expect(encodeOutputSchema(schema)).to.deep.equal({
      type: 'object',
      properties: {
        age: { type: 'integer', description: '{minimum: 0, maximum: 150}' },
        name: { type: 'string', format: 'hostname', description: 'host\n\n{maxLength: 40}' },
        code: { type: 'string', description: '{format: "int32", pattern: "^[0-9]+$"}' },
        tags: { type: 'array', items: { type: 'string' }, description: '{minItems: 2}' },
        one: { type: 'array', items: { type: 'string' }, minItems: 1 },
        extra: { type: 'object', properties: {}, additionalProperties: false, description: '{additionalProperties: {"type":"string"}}' },
        either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['age'],
      additionalProperties: false,
    });
  });
});
