import { expect } from 'chai';
import { ClientAbort } from '../../../core/http/client-abort';

describe('ClientAbort', () => {
  it('calls each listener once on abort, and not one that was removed', () => {
    const abort = new ClientAbort();
    const calls: string[] = [];
    const kept = (): void => void calls.push('kept');
    const removed = (): void => void calls.push('removed');
    abort.addEventListener('abort', kept);
    abort.addEventListener('abort', removed);
    abort.removeEventListener('abort', removed);
    abort.abort();
    abort.abort();
    expect(calls).to.deep.equal(['kept']);
    expect(abort.aborted).to.equal(true);
  });

  it('gives an AbortError reason by default, as AbortController does', () => {
    const abort = new ClientAbort();
    abort.abort();
    expect(abort.reason).to.be.instanceOf(DOMException);
    expect((abort.reason as DOMException).name).to.equal('AbortError');
  });

  it('does not call a listener added after the abort (an AbortSignal does not either)', () => {
    const abort = new ClientAbort();
    abort.abort();
    let called = false;
    abort.addEventListener('abort', () => (called = true));
    expect(called).to.equal(false);
  });

  it('aborts a signal made before the abort, with the same reason', () => {
    const abort = new ClientAbort();
    const { signal } = abort;
    expect(signal).to.be.instanceOf(AbortSignal);
    expect(signal.aborted).to.equal(false);
    const reason = new Error('gone');
    abort.abort(reason);
    expect(signal.aborted).to.equal(true);
    expect(signal.reason).to.equal(reason);
  });

  it('makes a signal after the abort already aborted, with the same reason, and always the same one', () => {
    const abort = new ClientAbort();
    const reason = new Error('gone');
    abort.abort(reason);
    expect(abort.signal.aborted).to.equal(true);
    expect(abort.signal.reason).to.equal(reason);
    expect(abort.signal).to.equal(abort.signal);
  });
});
