import { expect } from 'chai';
import { createGroupSync } from '../../../core/store/create-group-sync';

/** A flush the test ends by hand, counting how many were started. */
function manualFlushes() {
  const pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  return {
    flush: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
    get started() {
      return pending.length;
    },
    end: (index: number, error?: Error) => (error ? pending[index].reject(error) : pending[index].resolve()),
  };
}

const settledState = async (promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> => {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  promise.then(() => (state = 'resolved'), () => (state = 'rejected'));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return state;
};

describe('createGroupSync', () => {
  it('starts a flush at once when none runs, and resolves when it ends', async () => {
    const flushes = manualFlushes();
    const sync = createGroupSync(flushes.flush);
    const first = sync();
    expect(flushes.started).to.equal(1);
    expect(await settledState(first)).to.equal('pending');
    flushes.end(0);
    expect(await settledState(first)).to.equal('resolved');
  });

  it('answers calls made during a flush with the next one, shared: a write committed after a flush began is not in it', async () => {
    const flushes = manualFlushes();
    const sync = createGroupSync(flushes.flush);
    const first = sync();
    const later = [sync(), sync(), sync()];
    expect(flushes.started).to.equal(1);
    flushes.end(0);
    expect(await settledState(first)).to.equal('resolved');
    // The running flush ended: the next starts for the three that waited, and they wait for it.
    expect(flushes.started).to.equal(2);
    for (const call of later) expect(await settledState(call)).to.equal('pending');
    flushes.end(1);
    for (const call of later) expect(await settledState(call)).to.equal('resolved');
    expect(flushes.started).to.equal(2);
  });

  it('runs one flush at a time: a call between the end of one flush and the start of the queued one joins the queued one', async () => {
    let active = 0;
    let most = 0;
    const ends: Array<() => void> = [];
    const sync = createGroupSync(() => {
      active += 1;
      most = Math.max(most, active);
      return new Promise<void>((resolve) => ends.push(() => ((active -= 1), resolve())));
    });
    const first = sync();
    const queued = sync();
    ends[0]();
    await first;
    // The running flush has ended (its `finally` ran), the queued one has not started yet.
    const between = sync();
    expect(between).to.equal(queued);
    for (let i = 0; i < 5 && ends.length < 2; i++) await Promise.resolve();
    expect(ends).to.have.length(2);
    ends[1]();
    await Promise.all([queued, between]);
    expect(most).to.equal(1);
  });

  it('rejects the calls a failed flush answered; the next call starts a flush of its own', async () => {
    const flushes = manualFlushes();
    const sync = createGroupSync(flushes.flush);
    const first = sync();
    const waiting = sync();
    flushes.end(0, new Error('EIO'));
    expect(await settledState(first)).to.equal('rejected');
    // The queued flush still runs for the call that waited: its write was never covered by the failed one.
    expect(flushes.started).to.equal(2);
    flushes.end(1, new Error('EIO again'));
    await waiting.then(() => expect.fail('resolved'), (error: Error) => expect(error.message).to.equal('EIO again'));
    const next = sync();
    expect(flushes.started).to.equal(3);
    flushes.end(2);
    expect(await settledState(next)).to.equal('resolved');
  });
});
