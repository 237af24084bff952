import { expect } from 'chai';
import winston from 'winston';
import { createMemoryStore } from '../../../core/store/memory-store';
import { createSignatureMemo } from '../src/signature-memo';

const silent = winston.createLogger({ silent: true });

describe('createSignatureMemo', () => {
  it('finds a call by the id any client format gives it back with (toolu_ for Messages, as is for the others)', async () => {
    const memo = createSignatureMemo(createMemoryStore(), 'gemini', silent);
    await memo.save('call_ab12cd34_0', 'sig-0');
    await memo.save('fn-7f3a', 'sig-upstream-id');
    const found = await memo.load(['toolu_ab12cd34_0', 'call_ab12cd34_0', 'toolu_fn-7f3a', 'call_other']);
    expect([...found]).to.deep.equal([
      ['toolu_ab12cd34_0', 'sig-0'],
      ['call_ab12cd34_0', 'sig-0'],
      ['toolu_fn-7f3a', 'sig-upstream-id'],
    ]);
  });

  it("keeps each platform's signatures apart, and outlives the memo object (a restart, with a lasting store)", async () => {
    const store = createMemoryStore();
    await createSignatureMemo(store, 'gemini', silent).save('call_1', 'sig');
    expect((await createSignatureMemo(store, 'gemini', silent).load(['call_1'])).get('call_1')).to.equal('sig');
    expect((await createSignatureMemo(store, 'other', silent).load(['call_1'])).size).to.equal(0);
  });
});
