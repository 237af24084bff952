import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { consumeBody } from './consume-body';
import { writeNow } from './write-now';

/**
 * Writes an upstream body to the client as it arrives, pausing while the client's socket is full. The first chunk
 * leaves at once; after it, whatever one socket read carried (an upstream that sent many events at once) leaves in
 * one write. Resolves when the body has ended or the client has gone; rejects with the body's error.
 */
export function pipeBody(body: Readable, res: ServerResponse, onChunk?: () => void): Promise<void> {
  let pending: Buffer[] = [];
  let written = false;
  const flush = (): boolean => {
    if (pending.length > 0) {
      const data = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      pending = [];
      writeNow(res, data);
    }
    return !res.writableNeedDrain;
  };
  return consumeBody(body, res, {
    take(chunk) {
      onChunk?.();
      pending.push(chunk);
      if (!written) {
        written = true;
        flush();
      }
      return false;
    },
    flush,
  });
}
