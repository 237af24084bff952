import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { writeNow } from './write-now';

/**
 * Writes an upstream body to the client as it arrives, pausing while the client's socket is full. Whatever has
 * arrived by the time the body signals `readable` (all of one socket read: an upstream that sent many events at
 * once) leaves in one socket write. Resolves when the body has ended or the client has gone; rejects with the
 * body's error (a body destroyed before its end counts as one). Plain events where an async iterator would cost
 * a promise per chunk.
 */
export function pipeBody(body: Readable, res: ServerResponse, onChunk: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let waiting = false;
    const finish = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      body.off('readable', onReadable);
      body.off('end', onEnd);
      body.off('error', finish);
      body.off('close', onBodyClose);
      res.off('drain', onDrain);
      res.off('close', onEnd);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onReadable = (): void => {
      if (waiting) return;
      for (let chunk: Buffer | null = body.read(); chunk !== null; chunk = body.read()) {
        onChunk();
        if (!writeNow(res, chunk)) {
          waiting = true;
          return;
        }
      }
    };
    const onDrain = (): void => {
      waiting = false;
      onReadable();
    };
    const onEnd = (): void => finish();
    const onBodyClose = (): void => finish(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    body.on('error', finish);
    body.on('end', onEnd);
    body.on('close', onBodyClose);
    res.on('drain', onDrain);
    res.on('close', onEnd);
    body.on('readable', onReadable);
  });
}
