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
        open: { type: 'object', additionalProperties: true },
      },
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } }, additionalProperties: false } },
      required: ['name'],
      additionalProperties: false,
    });
    expect(schema).to.deep.equal(copy);
  });
});
