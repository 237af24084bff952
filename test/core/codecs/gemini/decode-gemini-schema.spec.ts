import { expect } from 'chai';
import { decodeGeminiSchema } from '../../../../core/codecs/gemini/decode-gemini-schema';
import { encodeGeminiSchema } from '../../../../core/codecs/gemini/encode-gemini-schema';

describe('decodeGeminiSchema', () => {
  const openApi = {
    type: 'OBJECT',
    description: 'args',
    properties: {
      name: { type: 'STRING', nullable: true },
      tags: { type: 'ARRAY', items: { type: 'STRING', enum: ['a'] } },
      choice: { anyOf: [{ type: 'INTEGER' }, { type: 'BOOLEAN' }] },
    },
    required: ['name'],
    propertyOrdering: ['name', 'tags', 'choice'],
  };

  it('turns the SDK form into lowercase JSON Schema with nullable unions', () => {
    expect(decodeGeminiSchema(openApi)).to.deep.equal({
      type: 'object',
      description: 'args',
      properties: {
        name: { type: ['string', 'null'] },
        tags: { type: 'array', items: { type: 'string', enum: ['a'] } },
        choice: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
      },
      required: ['name'],
      propertyOrdering: ['name', 'tags', 'choice'],
    });
  });

  it('round-trips through encodeGeminiSchema to the lowercase Gemini form', () => {
    expect(encodeGeminiSchema(decodeGeminiSchema(openApi))).to.deep.equal({
      type: 'object',
      description: 'args',
      properties: {
        name: { type: 'string', nullable: true },
        tags: { type: 'array', items: { type: 'string', enum: ['a'] } },
        choice: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
      },
      required: ['name'],
      propertyOrdering: ['name', 'tags', 'choice'],
    });
  });

  it('lets a nullable enum hold null, which JSON Schema checks against the enum too', () => {
    expect(decodeGeminiSchema({ type: 'STRING', enum: ['red', 'blue'], nullable: true })).to.deep.equal({ type: ['string', 'null'], enum: ['red', 'blue', null] });
    expect(decodeGeminiSchema({ type: 'STRING', enum: ['red'] })).to.deep.equal({ type: 'string', enum: ['red'] });
  });

  it('keeps nullable where there is no type, and drops TYPE_UNSPECIFIED', () => {
    expect(decodeGeminiSchema({ type: 'TYPE_UNSPECIFIED', nullable: true, description: 'x' })).to.deep.equal({ nullable: true, description: 'x' });
  });

  it('reads the int64 counts the SDK writes as strings as numbers, and an enum format as a plain enum', () => {
    // As @google/genai types them: `minItems: string`, and integer enums with `format: "enum"` and string values.
    const sdkSchema = {
      type: 'OBJECT',
      properties: {
        tags: { type: 'ARRAY', items: { type: 'STRING', maxLength: '20', minLength: '1' }, minItems: '1', maxItems: '5' },
        floor: { type: 'INTEGER', format: 'enum', enum: ['101', '201'] },
        side: { type: 'STRING', format: 'enum', enum: ['EAST', 'WEST'] },
        when: { type: 'STRING', format: 'date-time' },
      },
      minProperties: '1',
      maxProperties: 'many',
    };
    expect(decodeGeminiSchema(sdkSchema)).to.deep.equal({
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', maxLength: 20, minLength: 1 }, minItems: 1, maxItems: 5 },
        floor: { type: 'integer', enum: [101, 201] },
        side: { type: 'string', enum: ['EAST', 'WEST'] },
        when: { type: 'string', format: 'date-time' },
      },
      minProperties: 1,
      maxProperties: 'many',
    });
  });
});
