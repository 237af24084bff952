import { Readable } from 'node:stream';

export interface BodyFollowHooks {
  /** Each chunk the source gives, before it is passed on. */
  onChunk?(chunk: Buffer): void;
  /** The source ended: every byte has been passed on. */
  onEnd?(): void;
  /** The source failed, or closed before its end (an Error with code ERR_STREAM_PREMATURE_CLOSE). */
  onFail(error: unknown): void;
  /** The follower was destroyed (its consumer is done with it); the source is destroyed after this. */
  onDestroy?(): void;
}

const ignore = (): void => undefined;

/**
 * A Readable that gives `source`'s bytes after `before`, with the source's backpressure (it pauses while the
 * follower is full) and its end. A plain Readable fed by hand rather than a Transform piped to: the same bytes for
 * less work per body. Destroying the follower destroys the source. Errors reach consumers that listen; one that
 * does not must not crash the process.
 */
export function followBody(source: Readable, hooks: BodyFollowHooks, before?: Buffer): Readable {
  let ended = false;
  const follower = new Readable({
    read() {
      source.resume();
    },
    destroy(error, callback) {
      hooks.onDestroy?.();
      if (!source.destroyed) source.destroy();
      callback(error);
    },
  });
  follower.on('error', ignore);
  if (before !== undefined && before.length > 0) follower.push(before);
  if (source.readableEnded) {
    follower.push(null);
    return follower;
  }
  // Failed before it was followed (a parse error in the read that carried its first bytes): its 'error' and 'close'
  // have been emitted already, and nothing would settle the follower but the idle timer.
  if (source.destroyed) {
    const error = source.errored ?? Object.assign(new Error('premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
    queueMicrotask(() => hooks.onFail(error));
    return follower;
  }
  source.on('error', (error: unknown) => hooks.onFail(error));
  source.once('end', () => {
    ended = true;
    hooks.onEnd?.();
    follower.push(null);
  });
  source.once('close', () => {
    if (!ended) hooks.onFail(Object.assign(new Error('premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
  });
  source.on('data', (chunk: Buffer) => {
    hooks.onChunk?.(chunk);
    if (!follower.push(chunk)) source.pause();
  });
  return follower;
}
