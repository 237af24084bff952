import type { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';

/** Where an upstream body's chunks go on their way to the client. */
export interface BodySink {
  /** One chunk, as the upstream's socket delivered it. Answers true when the answer is complete: reading stops. */
  take(chunk: Buffer): boolean;
  /**
   * The chunks of one socket read have all been taken: write what they made. Answers false when the client's socket is
   * full. `last`: the answer is complete, and the response ends in this turn of the event loop: what is written may wait
   * for that end (corked), so that the last bytes and the end leave in one socket write.
   */
  flush(last?: boolean): boolean;
}

/**
 * Feeds an upstream body to `sink` as it arrives and has it write once per socket read, pausing the body while
 * the client's socket is full. Chunks are taken as the HTTP parser hands them over (flowing mode), so when one
 * read carries a whole answer the sink sees its first event before the rest of that read has been parsed.
 * Resolves when the body has ended, the sink has the whole answer, or the client has gone; rejects with the
 * body's error (a body destroyed before its end counts as one) or the sink's. Plain events where an async
 * iterator would cost a promise per chunk and a turn of the event loop before the first.
 */
export function consumeBody(body: Readable, client: EventEmitter, sink: BodySink): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let flushQueued = false;
    const finish = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      for (const [emitter, event, listener] of listeners) emitter.off(event, listener);
      if (error === undefined) resolve();
      else reject(error);
    };
    /** False when writing failed (the promise has settled). */
    const flush = (last = false): boolean => {
      flushQueued = false;
      if (settled) return false;
      try {
        if (!sink.flush(last)) body.pause();
        return true;
      } catch (error) {
        finish(error);
        return false;
      }
    };
    const onData = (chunk: Buffer): void => {
      let complete: boolean;
      try {
        complete = sink.take(chunk);
      } catch (error) {
        finish(error);
        return;
      }
      if (complete) {
        if (flush(true)) finish();
      } else if (!flushQueued) {
        // The parser hands over every chunk of this read before the tick ends: they leave together.
        flushQueued = true;
        process.nextTick(flush, false);
      }
    };
    const onEnd = (): void => {
      if (!flushQueued || flush(true)) finish();
    };
    const onDrain = (): void => {
      body.resume();
    };
    const onClientClose = (): void => finish();
    const onBodyClose = (): void => finish(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    // 'data' last: listening to it starts the flow.
    const listeners: Array<[EventEmitter, string, Parameters<EventEmitter['on']>[1]]> = [
      [body, 'end', onEnd],
      [body, 'error', finish],
      [body, 'close', onBodyClose],
      [client, 'drain', onDrain],
      [client, 'close', onClientClose],
      [body, 'data', onData],
    ];
    for (const [emitter, event, listener] of listeners) emitter.on(event, listener);
  });
}
