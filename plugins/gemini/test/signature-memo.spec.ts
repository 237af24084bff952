import { expect } from 'chai';
import winston from 'winston';
import type { Store } from '@gateway/core';
import { createMemoryStore } from '../../../core/store/memory-store';
import { recordingLogger } from '../../../test/helpers/recording-logger';
import { createSignatureMemo, signatureScope, type SignedCall } from '../src/signature-memo';

const silent = winston.createLogger({ silent: true });
const LICENSE = 'lic-...6789';
const look = (id: string, args = '{"city":"Paris"}'): SignedCall => ({ id, name: 'look', arguments: args });

describe('createSignatureMemo', () => {
  it('finds a call by the id any client format gives it back with (toolu_ for Messages, as is for the others)', async () => {
    const memo = createSignatureMemo(createMemoryStore(), 'gemini', silent);
    await memo.save(look('call_ab12cd34_0'), 'sig-0', LICENSE);
    await memo.save(look('fn-7f3a'), 'sig-upstream-id', LICENSE);
    // An id with a character the Messages encoder drops (`toolu_ab` for `call_a.b`).
    await memo.save(look('call_a.b'), 'sig-dotted', LICENSE);
    const found = await memo.load([look('toolu_ab12cd34_0'), look('call_ab12cd34_0'), look('toolu_fn-7f3a'), look('toolu_ab'), look('call_other')], LICENSE);
    expect([...found]).to.deep.equal([
      ['toolu_ab12cd34_0', 'sig-0'],
      ['call_ab12cd34_0', 'sig-0'],
      ['toolu_fn-7f3a', 'sig-upstream-id'],
      ['toolu_ab', 'sig-dotted'],
    ]);
  });

  it('gives a signature back only for the call it was made for: same name and arguments, in any key order or spacing', async () => {
    const memo = createSignatureMemo(createMemoryStore(), 'gemini', silent);
    await memo.save(look('call_1', '{"city":"Paris","days":2}'), 'sig-paris', LICENSE);
    const found = await memo.load(
      [
        look('call_1', '{ "days": 2, "city": "Paris" }'),
        // Another conversation's call with the same made-up id: not this signature.
        { id: 'toolu_1', name: 'look', arguments: '{"city":"Rome","days":2}' },
        { id: 'call_1', name: 'other_tool', arguments: '{"city":"Paris","days":2}' },
      ],
      LICENSE,
    );
    expect([...found]).to.deep.equal([['call_1', 'sig-paris']]);
  });

  it('tells apart two calls whose numbers differ only past a double\'s precision (both read as 12345678901234567000 before)', async () => {
    const memo = createSignatureMemo(createMemoryStore(), 'gemini', silent);
    await memo.save(look('call_1', '{"order":12345678901234567890}'), 'sig-order', LICENSE);
    const found = await memo.load([look('call_1', '{"order":12345678901234567891}')], LICENSE);
    expect([...found]).to.deep.equal([]);
    const same = await memo.load([look('call_1', '{ "order": 12345678901234567890 }')], LICENSE);
    expect([...same]).to.deep.equal([['call_1', 'sig-order']]);
  });

  it("keeps each principal's and each platform's signatures apart, and outlives the memo object (a restart, with a lasting store)", async () => {
    const store = createMemoryStore();
    await createSignatureMemo(store, 'gemini', silent).save(look('call_1'), 'sig', LICENSE);
    expect((await createSignatureMemo(store, 'gemini', silent).load([look('call_1')], LICENSE)).get('call_1')).to.equal('sig');
    expect((await createSignatureMemo(store, 'gemini', silent).load([look('call_1')], 'lic-...0000')).size).to.equal(0);
    expect((await createSignatureMemo(store, 'other', silent).load([look('call_1')], LICENSE)).size).to.equal(0);
    expect(signatureScope({ principal: { kind: 'license', id: LICENSE } })).to.equal(LICENSE);
  });

  it('finds nothing, and logs, when the store cannot be read: the request goes on without', async () => {
    const { log, entries: errors } = recordingLogger();
    const broken: Store = { ...createMemoryStore(), get: () => Promise.reject(new Error('SQLITE_IOERR')) };
    const found = await createSignatureMemo(broken, 'gemini', log).load([look('call_1')], LICENSE);
    expect(found.size).to.equal(0);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ level: 'error', message: 'could not read thought signatures' });
  });
});
