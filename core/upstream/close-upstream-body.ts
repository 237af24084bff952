import type { Readable } from 'node:stream';

/** How long a complete answer's body may take to end on its own before its connection is given up. */
const RUN_OUT_MS = 2000;

const ignore = (): void => undefined;

/**
 * Done with an upstream body. One read to its end needs nothing more; one abandoned mid-way is destroyed. One whose
 * answer is complete (its end marker, `[DONE]` or `message_stop`, has been read) usually ends a moment later (the
 * chunked terminator may come in a packet of its own): it is left to run out, so that its keep-alive connection goes
 * back to the pool, and destroyed only if it has not ended within RUN_OUT_MS (an upstream holding the stream open
 * after its end marker).
 */
export function closeUpstreamBody(body: Readable, answerComplete: boolean): void {
  if (body.destroyed || body.readableEnded) return;
  if (!answerComplete) {
    body.destroy();
    return;
  }
  body.on('error', ignore);
  const giveUp = setTimeout(() => body.destroy(), RUN_OUT_MS);
  giveUp.unref();
  body.once('end', () => clearTimeout(giveUp));
  body.resume();
}
