import { expect } from 'chai';
import { createHeldWrites } from '../../../core/store/create-held-writes';
import { createMemoryStore } from '../../../core/store/memory-store';
import type { Store } from '../../../core/store/store';

/** A memory store whose writes fail (a full disk) while `failing` is set. */
function flakyStore(now: () => number = Date.now): Store & { failing: boolean; writes: number } {
  const inner = createMemoryStore(now);
  const store = {
    failing: false,
    writes: 0,
    get: inner.get.bind(inner),
    list: inner.list.bind(inner),
    delete: inner.delete.bind(inner),
    close: inner.close.bind(inner),
    async set<T>(namespace: string, key: string, value: T, options?: { ttlMs?: number }): Promise<void> {
      store.writes += 1;
      if (store.failing) throw new Error('SQLITE_FULL: database or disk is full');
      return inner.set(namespace, key, value, options);
    },
  };
  return store;
}

describe('createHeldWrites', () => {
  it('writes through to the store and reads back from it', async () => {
    const store = flakyStore();
    const records = createHeldWrites(store);
    expect(await records.set('ns', 'a', { owner: 'lic_1' })).to.equal(undefined);
    expect(await store.get('ns', 'a')).to.deep.equal({ owner: 'lic_1' });
    expect(await records.get('ns', 'a')).to.deep.equal({ owner: 'lic_1' });
    expect(await records.get('ns', 'b')).to.equal(undefined);
  });

  it('answers a value the store refused, returns the failure, and writes it at a later read once the store takes it', async () => {
    const store = flakyStore();
    const records = createHeldWrites(store);
    store.failing = true;
    const failed = await records.set('ns', 'a', { owner: 'lic_1' });
    expect(failed).to.be.instanceOf(Error);
    expect(failed?.message).to.include('disk is full');
    expect(await store.get('ns', 'a')).to.equal(undefined);
    // Still failing: answered from memory, tried again.
    expect(await records.get('ns', 'a')).to.deep.equal({ owner: 'lic_1' });
    expect(store.writes).to.equal(2);
    store.failing = false;
    expect(await records.get('ns', 'a')).to.deep.equal({ owner: 'lic_1' });
    expect(await store.get('ns', 'a')).to.deep.equal({ owner: 'lic_1' });
    // Durable now: read from the store, not written again.
    await records.get('ns', 'a');
    expect(store.writes).to.equal(3);
  });

  it('answers the newest value of a key: a refused one over an older stored one, and a stored one over an older refused one', async () => {
    const store = flakyStore();
    const records = createHeldWrites(store);
    await records.set('ns', 'a', { v: 1 });
    store.failing = true;
    await records.set('ns', 'a', { v: 2 });
    expect(await records.get('ns', 'a')).to.deep.equal({ v: 2 });
    store.failing = false;
    await records.set('ns', 'a', { v: 3 });
    expect(await records.get('ns', 'a')).to.deep.equal({ v: 3 });
    expect(await store.get('ns', 'a')).to.deep.equal({ v: 3 });
  });

  it('tries the held writes again on its own, without a read, until the store takes them', async () => {
    const store = flakyStore();
    const records = createHeldWrites(store, { retryMs: 20 });
    store.failing = true;
    await records.set('ns', 'a', { owner: 'lic_1' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    // Retried while failing (more writes than the one set), not dropped.
    expect(store.writes).to.be.greaterThan(1);
    store.failing = false;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await store.get('ns', 'a')).to.deep.equal({ owner: 'lic_1' });
    const writes = store.writes;
    await new Promise((resolve) => setTimeout(resolve, 60));
    // Durable: no more retries.
    expect(store.writes).to.equal(writes);
  });

  it('keeps a key apart per namespace', async () => {
    const store = flakyStore();
    const records = createHeldWrites(store);
    store.failing = true;
    await records.set('ns:one', 'a', 1);
    expect(await records.get('ns:two', 'a')).to.equal(undefined);
  });

  it('drops a held value once its ttl has passed, and writes one read before then with the time it has left', async () => {
    let now = 1_000_000;
    const store = flakyStore(() => now);
    const records = createHeldWrites(store, { now: () => now });
    store.failing = true;
    await records.set('ns', 'gone', 'x', { ttlMs: 1000 });
    await records.set('ns', 'kept', 'y', { ttlMs: 1000 });
    now += 600;
    store.failing = false;
    expect(await records.get('ns', 'kept')).to.equal('y');
    now += 500;
    expect(await records.get('ns', 'gone')).to.equal(undefined);
    // Written at 600 ms with 400 ms left, so gone from the store at 1000 ms as it would have been.
    expect(await store.get('ns', 'kept')).to.equal(undefined);
  });
});
