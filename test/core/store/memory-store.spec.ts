import { expect } from 'chai';
import { createMemoryStore } from '../../../core/store/memory-store';
import { describeStoreContract } from './store-contract';

describe('createMemoryStore', () => {
  describeStoreContract((now) => createMemoryStore(now));

  it('starts empty: nothing is shared between two stores', async () => {
    const first = createMemoryStore();
    const second = createMemoryStore();
    await first.set('ns', 'k', 1);
    expect(await second.get('ns', 'k')).to.equal(undefined);
  });
});
