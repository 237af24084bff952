import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { openAiModelCards } from '../../../core/models-api/openai-model-cards';

describe('openAiModelCards', () => {
  it('keeps each entry of an OpenAI list as it came, for OpenAI clients', () => {
    const entry = { id: 'gpt-4.1-mini', object: 'model', created: 1, owned_by: 'openai', extra: true };
    expect(openAiModelCards({ object: 'list', data: [entry, { id: 'bare' }] })).to.deep.equal([
      { id: 'gpt-4.1-mini', ownedBy: 'openai', created: 1, native: { dialect: 'openai', fields: entry } },
      { id: 'bare', ownedBy: 'system', native: { dialect: 'openai', fields: { id: 'bare' } } },
    ]);
  });

  const malformed: Array<[string, unknown]> = [
    ['null', null],
    ['a list without data', { object: 'list' }],
    ['data that is an object', { data: {} }],
    ['a null entry', { data: [null] }],
    ['an entry without an id', { data: [{ object: 'model' }] }],
    ['an entry whose id is a number', { data: [{ id: 4 }] }],
  ];
  for (const [what, answer] of malformed) {
    it(`calls ${what} a bad upstream answer (502)`, () => {
      let thrown: unknown;
      try {
        openAiModelCards(answer);
      } catch (error) {
        thrown = error;
      }
      expect(isGatewayError(thrown) && thrown.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    });
  }
});
