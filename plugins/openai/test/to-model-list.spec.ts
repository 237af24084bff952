import { expect } from 'chai';
import { isGatewayError } from '@gateway/core';
import { toModelList } from '../src/list-openai-models';

describe('toModelList', () => {
  it('keeps the entries of an OpenAI list as they came', () => {
    const data = [{ id: 'gpt-4.1-mini', object: 'model', created: 1, owned_by: 'openai', extra: true }];
    expect(toModelList({ object: 'list', data })).to.deep.equal({ object: 'list', data });
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
        toModelList(answer);
      } catch (error) {
        thrown = error;
      }
      expect(isGatewayError(thrown) && thrown.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    });
  }
});
