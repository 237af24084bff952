import { expect } from 'chai';
import { configAjv, describeConfigErrors } from '../../../core/validation/describe-config-errors';

const schema = {
  type: 'object',
  properties: {
    store: {
      oneOf: [
        { type: 'object', additionalProperties: false, required: ['driver'], properties: { driver: { const: 'memory' } } },
        { type: 'object', additionalProperties: false, required: ['driver', 'path'], properties: { driver: { const: 'sqlite' }, path: { type: 'string' } } },
      ],
    },
    credentials: {
      type: 'array',
      items: {
        anyOf: [
          { type: 'object', additionalProperties: false, required: ['apiKey'], properties: { apiKey: { type: 'string' } } },
          { type: 'object', additionalProperties: false, required: ['sessionKey'], properties: { sessionKey: { type: 'string' } } },
        ],
      },
    },
    port: { type: 'integer' },
  },
};
const validate = configAjv.compile(schema);

function described(value: unknown): string {
  expect(validate(value)).to.equal(false);
  return describeConfigErrors(validate.errors, 'config').message;
}

describe('describeConfigErrors', () => {
  it('names the tag and its allowed values when every branch of a oneOf is ruled out by it (not the first branch\'s complaint)', () => {
    expect(described({ store: { driver: 'sqllite', path: './x.db' } })).to.equal('store.driver: must be one of "memory", "sqlite"');
  });

  it('explains the branch the tag chose', () => {
    expect(described({ store: { driver: 'sqlite' } })).to.equal('store.path: is required');
  });

  it('names a misspelt field of an anyOf entry rather than the first branch\'s missing one', () => {
    expect(described({ credentials: [{ sessionkey: 'x' }] })).to.equal('credentials[0].sessionkey: is not a known field');
    expect(described({ credentials: [{}] })).to.equal('credentials[0].apiKey: is required');
  });

  it('names the first error outside any combinator, as before', () => {
    expect(described({ port: 'x' })).to.equal('port: must be integer');
  });
});

describe('describeConfigErrors outside a oneOf/anyOf', () => {
  const options = configAjv.compile({
    type: 'object',
    additionalProperties: false,
    required: ['credentials'],
    properties: { credentials: { type: 'array', items: { type: 'object', additionalProperties: false, required: ['apiKey'], properties: { apiKey: { type: 'string' } } } } },
  });
  const message = (value: unknown): string => {
    expect(options(value)).to.equal(false);
    return describeConfigErrors(options.errors, 'options').message;
  };

  it('names a misspelt key as unknown, not the key it stands for as missing', () => {
    expect(message({ credentails: [] })).to.match(/credentails.*not a known field/);
    expect(message({ credentials: [{ apikey: 'x' }] })).to.match(/apikey.*not a known field/);
    expect(message({})).to.match(/credentials.*required/);
  });
});
