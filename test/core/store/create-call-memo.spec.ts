import { expect } from 'chai';
import { createCallMemo } from '../../../core/store/create-call-memo';
import { createMemoryStore } from '../../../core/store/memory-store';
import type { Store } from '../../../core/store/store';
import { createCorruptStore } from '../../helpers/corrupt-store';
import { recordingLogger } from '../../helpers/recording-logger';

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

describe('createCallMemo', () => {
  it('keeps a value per tool call id in its namespace and loads those that have one', async () => {
    const store = createMemoryStore();
    const { log } = recordingLogger();
    const memo = createCallMemo(store, 'memo:a', log, { ttlMs: 60_000, what: 'things', isValid: isText });
    await memo.save('call_1', 'one');
    await memo.save('call_2', 'two');
    expect([...(await memo.load(['call_2', 'call_9', 'call_1']))]).to.deep.equal([
      ['call_2', 'two'],
      ['call_1', 'one'],
    ]);
    expect(await store.get('memo:a', 'call_1')).to.equal('one');
    // Another namespace (another platform) sees none of them.
    const other = createCallMemo(store, 'memo:b', log, { ttlMs: 60_000, what: 'things', isValid: isText });
    expect((await other.load(['call_1'])).size).to.equal(0);
  });

  it('forgets a value once its ttl has passed', async () => {
    let now = 1_000_000;
    const store = createMemoryStore(() => now);
    const memo = createCallMemo(store, 'memo', recordingLogger().log, { ttlMs: 1000, what: 'things', isValid: isText });
    await memo.save('call_1', 'one');
    now += 999;
    expect((await memo.load(['call_1'])).get('call_1')).to.equal('one');
    now += 2;
    expect((await memo.load(['call_1'])).size).to.equal(0);
  });

  it('counts an entry of another shape as missing', async () => {
    const store = createMemoryStore();
    await store.set('memo', 'call_1', { not: 'text' });
    await store.set('memo', 'call_2', '');
    const memo = createCallMemo(store, 'memo', recordingLogger().log, { ttlMs: 1000, what: 'things', isValid: isText });
    expect((await memo.load(['call_1', 'call_2'])).size).to.equal(0);
  });

  it('logs a save the store refuses instead of throwing, naming what was not kept', async () => {
    const failing: Store = { ...createMemoryStore(), set: () => Promise.reject(new Error('disk full')) };
    const { log, entries } = recordingLogger();
    const memo = createCallMemo(failing, 'memo', log, { ttlMs: 1000, what: 'thought signatures', isValid: isText });
    await memo.save('call_1', 'one');
    expect(entries).to.have.length(1);
    expect(entries[0]).to.include({ level: 'error', message: 'could not store thought signatures', toolCallId: 'call_1' });
    expect(String(entries[0].error)).to.contain('disk full');
  });

  it('finds nothing when the store cannot be read (an I/O error), and logs it instead of failing the request', async () => {
    const failing: Store = { ...createMemoryStore(), get: () => Promise.reject(new Error('SQLITE_IOERR')) };
    const { log, entries } = recordingLogger();
    const memo = createCallMemo(failing, 'memo', log, { ttlMs: 1000, what: 'thought signatures', isValid: isText });
    expect((await memo.load(['call_1', 'call_2'])).size).to.equal(0);
    expect(entries).to.have.length(1);
    expect(entries[0]).to.include({ level: 'error', message: 'could not read thought signatures', toolCallIds: 2 });
    expect(String(entries[0].error)).to.contain('SQLITE_IOERR');
  });

  it('leaves out an entry that cannot be read back (not JSON) and loads the others, with a warning naming it', async () => {
    const damaged = await createCorruptStore([['memo', 'call_bad']], [['memo', 'call_ok', 'kept']]);
    try {
      const { log, entries } = recordingLogger();
      const memo = createCallMemo(damaged.store, 'memo', log, { ttlMs: 1000, what: 'thought signatures', isValid: isText });
      expect([...(await memo.load(['call_bad', 'call_ok']))]).to.deep.equal([['call_ok', 'kept']]);
      expect(entries).to.have.length(1);
      expect(entries[0]).to.include({ level: 'warn', message: 'thought signatures unreadable; left out', toolCallId: 'call_bad' });
    } finally {
      await damaged.remove();
    }
  });
});
