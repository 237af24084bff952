/**
 * Group commit: `sync()` resolves once a flush that started after the call has finished, and writes committed while one
 * flush runs share the next, so N writes that come together cost two flushes, not N. A failed flush rejects the calls
 * that waited for it; the next call starts a new one. At most one flush runs at a time.
 */
export function createGroupSync(flush: () => Promise<void>): () => Promise<void> {
  /** The flush running now: it may have started before the caller's write, so it cannot answer for it. */
  let running: Promise<void> | undefined;
  /** The flush that starts once the running one ends, shared by every call made meanwhile. */
  let queued: Promise<void> | undefined;

  function start(): Promise<void> {
    const flushing = flush().finally(() => {
      if (running === flushing) running = undefined;
    });
    running = flushing;
    return flushing;
  }

  return function sync(): Promise<void> {
    // A queued flush has not started yet: it covers this call's write. Checked first: between the running flush's end
    // and the queued one's start, `running` is cleared, and a flush started here would run beside the queued one.
    if (queued) return queued;
    if (!running) return start();
    queued ??= running.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      queued = undefined;
      return start();
    });
    return queued;
  };
}
