import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { closeUpstreamBody } from '../upstream/close-upstream-body';
import { consumeBody } from './consume-body';
import type { CredentialMasker } from '../errors/mask-echoed-credentials';
import { writeNow } from './write-now';

export interface RelayOptions {
  /**
   * Called with each chunk, before it is written (masked, when `mask` is given). Answers true when the chunk completes
   * the answer (a stream's last event is whole): reading then stops, though the upstream may hold its body open.
   */
  onChunk?: (chunk: Buffer) => boolean | void;
  /** Masks credentials the body echoes (see createCredentialMasker). */
  mask?: CredentialMasker;
  /**
   * Writes the response's head, called before its first byte (or before an empty body's end). Given, a body that
   * breaks before any byte has been written rejects instead of calling `onBreak`: nothing has reached the client, and
   * the caller can answer the error in its own shape (a 502), where a started response could only be cut.
   */
  start?: () => void;
  /**
   * The body broke off (it is passed its error): log it, and write a last word when the format has one. Answers true
   * when the response may then be ended; false drops the connection.
   */
  onBreak(error: unknown): boolean;
  /**
   * The body ended whole (all of it relayed): a last word may still be written, before the response ends. Answers
   * false when the response must not end as whole (the connection is then dropped).
   */
  onEnd?(): boolean;
}

/**
 * Relays a body to the client and settles the response: ended when the body was whole; when it broke off, ended
 * only if `onBreak` says so, else the connection is dropped, so that the client cannot take a body cut short as
 * complete. A body read to the answer's end is left to run out (its connection kept); any other is destroyed.
 */
export async function relayBody(body: Readable, res: ServerResponse, options: RelayOptions): Promise<void> {
  let endable = false;
  let unanswered = false;
  const progress = { complete: false };
  try {
    await pipeBody(body, res, options, progress);
    writeHeldBack(res, options);
    endable = res.destroyed || !options.onEnd || options.onEnd();
  } catch (error) {
    if (options.start && !res.headersSent) {
      unanswered = true;
      throw error;
    }
    writeHeldBack(res, options);
    endable = options.onBreak(error);
  } finally {
    closeUpstreamBody(body, progress.complete);
    if (!unanswered && !res.writableEnded) {
      if (endable) {
        startOnce(res, options);
        res.end();
      } else {
        // Bytes held for the end go out before the connection drops, as they did when written at once.
        if (res.writableCorked > 0) res.uncork();
        res.destroy();
      }
    }
  }
}

function startOnce(res: ServerResponse, { start }: RelayOptions): void {
  if (start && !res.headersSent) start();
}

/** What the masker held back, once the body has ended or broken off. */
function writeHeldBack(res: ServerResponse, options: RelayOptions): void {
  const rest = options.mask?.end();
  if (!rest || rest.length === 0 || res.destroyed) return;
  options.onChunk?.(rest);
  startOnce(res, options);
  writeNow(res, rest);
}

/**
 * Writes a body to the client as it arrives, pausing while the client's socket is full. The first chunk leaves at
 * once; after it, whatever one socket read carried (an upstream that sent many events at once) leaves in one write.
 * Resolves when the body has ended or the client has gone; rejects with the body's error.
 */
function pipeBody(body: Readable, res: ServerResponse, options: RelayOptions, progress: { complete: boolean }): Promise<void> {
  const { onChunk, mask } = options;
  let pending: Buffer[] = [];
  let written = false;
  const flush = (last = false): boolean => {
    if (pending.length > 0) {
      const data = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      pending = [];
      startOnce(res, options);
      // The answer's last bytes leave with its end: relayBody ends it in this turn.
      writeNow(res, data, last);
    }
    return !res.writableNeedDrain;
  };
  return consumeBody(body, res, {
    take(received) {
      const chunk = mask ? mask.push(received) : received;
      if (chunk.length === 0) return false;
      progress.complete = onChunk?.(chunk) === true;
      pending.push(chunk);
      if (!written) {
        written = true;
        // A first chunk that completes the answer waits for the end too.
        flush(progress.complete);
      }
      return progress.complete;
    },
    flush,
  });
}
