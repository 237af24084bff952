import { expect } from 'chai';
import { createUniqueCallIds } from '../../../../core/codecs/shared/unique-call-ids';
import { portableFunctionNames } from '../../../../core/codecs/shared/portable-function-names';

describe('createUniqueCallIds', () => {
  it('numbers a repeated id after it, past the numbers an id of the answer already has', () => {
    const unique = createUniqueCallIds();
    expect(['call_0', 'call_0_2', 'call_0', 'call_0', 'call_1', 'call_0_3', 'call_0'].map(unique)).to.deep.equal([
      'call_0', 'call_0_2', 'call_0_3', 'call_0_4', 'call_1', 'call_0_3_2', 'call_0_5',
    ]);
  });

  it('gives 20000 calls of one id 20000 ids', () => {
    const unique = createUniqueCallIds();
    const ids = Array.from({ length: 20_000 }, () => unique('call_0'));
    expect(new Set(ids).size).to.equal(20_000);
    expect(ids.at(-1)).to.equal('call_0_20000');
  });
});

describe('portableFunctionNames: many names that fix to one', () => {
  it('numbers each, past the names the request already has', () => {
    const names = ['t日本', 't中文', 't___2', 't한국'];
    expect([...portableFunctionNames(names)]).to.deep.equal([['t日本', 't__'], ['t中文', 't___3'], ['t한국', 't___4']]);
  });
});
