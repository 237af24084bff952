import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import type { Store } from '../../../core/store/store';

/** A clock the test moves by hand. */
export function createManualClock(start = 1_700_000_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

export async function expectGatewayError(promise: Promise<unknown>, messagePart: string): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(isGatewayError(error), String(error)).to.equal(true);
    expect((error as Error).message).to.include(messagePart);
    return error as Error;
  }
  expect.fail(`expected a GatewayError mentioning ${messagePart}`);
}

/**
 * What every Store driver promises. `openStore` opens a fresh, empty store with the given clock
 * (`undefined`: the real one).
 */
export function describeStoreContract(openStore: (now?: () => number) => Store): void {
  describe('Store contract', () => {
    let clock: ReturnType<typeof createManualClock>;
    let store: Store;

    beforeEach(() => {
      clock = createManualClock();
      store = openStore(clock.now);
    });
    afterEach(async () => {
      await store.close();
    });

    it('answers undefined for a key never set', async () => {
      expect(await store.get('ns', 'missing')).to.equal(undefined);
      expect(await store.list('ns')).to.deep.equal([]);
    });

    it('returns what was set, and the latest value after an overwrite', async () => {
      await store.set('ns', 'k', { n: 1 });
      expect(await store.get('ns', 'k')).to.deep.equal({ n: 1 });
      await store.set('ns', 'k', { n: 2 });
      expect(await store.get('ns', 'k')).to.deep.equal({ n: 2 });
      expect(await store.list('ns')).to.deep.equal([{ key: 'k', value: { n: 2 } }]);
    });

    it('deletes: true for a live entry, false for a missing one', async () => {
      await store.set('ns', 'k', 'v');
      expect(await store.delete('ns', 'k')).to.equal(true);
      expect(await store.get('ns', 'k')).to.equal(undefined);
      expect(await store.delete('ns', 'k')).to.equal(false);
      expect(await store.list('ns')).to.deep.equal([]);
    });

    it('lists a namespace ordered by key, in code-point order', async () => {
      const keys = ['b', '\u{1F600}', 'a', '9', '\uFF61', 'A', '10', 'a\u{1F600}', 'ab'];
      for (const key of keys) await store.set('ns', key, `value of ${key}`);
      const listed = await store.list<string>('ns');
      expect(listed.map((entry) => entry.key)).to.deep.equal(['10', '9', 'A', 'a', 'ab', 'a\u{1F600}', 'b', '\uFF61', '\u{1F600}']);
      expect(listed.every((entry) => entry.value === `value of ${entry.key}`)).to.equal(true);
    });

    it('keeps namespaces apart', async () => {
      await store.set('one', 'k', 1);
      await store.set('two', 'k', 2);
      await store.set('two', 'other', 3);
      expect(await store.get('one', 'k')).to.equal(1);
      expect(await store.list('one')).to.deep.equal([{ key: 'k', value: 1 }]);
      expect(await store.delete('one', 'k')).to.equal(true);
      expect(await store.get('two', 'k')).to.equal(2);
      expect(await store.list('two')).to.deep.equal([
        { key: 'k', value: 2 },
        { key: 'other', value: 3 },
      ]);
      expect(await store.list('three')).to.deep.equal([]);
    });

    it('round-trips nested JSON values and JSON primitives', async () => {
      const nested = {
        text: 'ünïcödé "quoted" \\ back\nslash \u{1F600}',
        number: -1.5e-7,
        flags: [true, false, null],
        deep: { a: [{ b: { c: [[], {}, ''] } }], empty: {} },
      };
      const values: unknown[] = [nested, null, 0, false, '', [1, 'two', { three: 3 }], 'x'.repeat(100_000)];
      for (const [index, value] of values.entries()) await store.set('json', `k${index}`, value);
      for (const [index, value] of values.entries()) expect(await store.get('json', `k${index}`)).to.deep.equal(value);
    });

    it('stores a copy: JSON semantics, no shared references', async () => {
      const value = { list: [1], when: new Date(Date.UTC(2025, 0, 2)), gone: undefined };
      await store.set('ns', 'k', value);
      value.list.push(2);
      const first = await store.get<{ list: number[] }>('ns', 'k');
      expect(first).to.deep.equal({ list: [1], when: '2025-01-02T00:00:00.000Z' });
      first?.list.push(3);
      expect(await store.get('ns', 'k')).to.deep.equal({ list: [1], when: '2025-01-02T00:00:00.000Z' });
    });

    it('rejects values JSON cannot hold, and stores nothing', async () => {
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      await expectGatewayError(store.set('ns', 'undefined', undefined), 'ns/undefined');
      await expectGatewayError(store.set('ns', 'circular', circular), 'ns/circular');
      await expectGatewayError(store.set('ns', 'bigint', 1n), 'not JSON-serialisable');
      expect(await store.list('ns')).to.deep.equal([]);
    });

    it('hides an entry once its TTL has passed', async () => {
      await store.set('ns', 'short', 's', { ttlMs: 1000 });
      await store.set('ns', 'forever', 'f');
      clock.advance(999);
      expect(await store.get('ns', 'short')).to.equal('s');
      expect((await store.list('ns')).map((entry) => entry.key)).to.deep.equal(['forever', 'short']);
      clock.advance(1);
      expect(await store.get('ns', 'short')).to.equal(undefined);
      expect(await store.list('ns')).to.deep.equal([{ key: 'forever', value: 'f' }]);
      expect(await store.delete('ns', 'short')).to.equal(false);
      clock.advance(365 * 24 * 3600_000);
      expect(await store.get('ns', 'forever')).to.equal('f');
    });

    it('does not report deleting an entry that had already expired', async () => {
      await store.set('ns', 'k', 'v', { ttlMs: 10 });
      clock.advance(10);
      expect(await store.delete('ns', 'k')).to.equal(false);
    });

    it('resets the TTL on overwrite', async () => {
      await store.set('ns', 'k', 'v1', { ttlMs: 100 });
      await store.set('ns', 'k', 'v2');
      clock.advance(1000);
      expect(await store.get('ns', 'k')).to.equal('v2');
      await store.set('ns', 'k', 'v3', { ttlMs: 100 });
      clock.advance(100);
      expect(await store.get('ns', 'k')).to.equal(undefined);
      await store.set('ns', 'k', 'v4', { ttlMs: 100 });
      expect(await store.get('ns', 'k')).to.equal('v4');
    });

    it('treats a TTL of zero or less as already expired, and rejects a non-finite one', async () => {
      await store.set('ns', 'zero', 'v', { ttlMs: 0 });
      await store.set('ns', 'negative', 'v', { ttlMs: -5 });
      expect(await store.list('ns')).to.deep.equal([]);
      await expectGatewayError(store.set('ns', 'nan', 'v', { ttlMs: Number.NaN }), 'ttlMs');
    });

    it('expires entries on the real clock', async () => {
      const real = openStore();
      try {
        await real.set('ns', 'k', 'v', { ttlMs: 1 });
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await real.get('ns', 'k')).to.equal(undefined);
        expect(await real.list('ns')).to.deep.equal([]);
      } finally {
        await real.close();
      }
    });

    it('rejects use after close, and closing twice is harmless', async () => {
      await store.close();
      await store.close();
      await expectGatewayError(store.get('ns', 'k'), 'store');
      await expectGatewayError(store.set('ns', 'k', 1), 'store');
      await expectGatewayError(store.list('ns'), 'store');
    });
  });
}
