import type { ServerResponse } from 'node:http';
import type { EventEmitter } from 'node:events';
import { SSE_HEADERS, formatSseEvent, type SseNewline } from '../sse/format-sse-event';
import { createJsonArrayWriter } from '../sse/json-array-writer';
import type { StreamFraming, WireEvent } from '../sse/wire-event';
import { flushHeadersSoon } from './flush-headers-soon';
import { writeNow } from './write-now';

/**
 * Writes wire events to the client as they come, framed as SSE (its lines ended with `newline`) or as a streamed JSON
 * array. One `write` call per batch, so a batch of events reaches the socket together; `write` answers false while
 * the client's socket is full, and `res` (the client) says when it drains or goes.
 * No getter in the returned object: a getter there gives every writer its own hidden class, allocated in old space
 * (measured: ~10 KB of old-space garbage per stream).
 */
export function createClientStreamWriter(res: ServerResponse, framing: StreamFraming, newline: SseNewline = '\n') {
  const array = framing === 'json-array' ? createJsonArrayWriter() : undefined;
  let flushHeaders: NodeJS.Timeout | undefined;

  const headers = framing === 'sse' ? SSE_HEADERS : { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' };

  /**
   * The 200 and the stream's headers go with the first events, or on their own when none has come within
   * HEADERS_WAIT_MS. Until then the answer has no status: an upstream error that comes first within that time (an
   * error event right behind the upstream's headers) is answered with its own status, which SDKs retry. Later, it can
   * only be the format's error event: the headers are not held longer, a client waits on them.
   */
  function start(): void {
    if (res.headersSent || flushHeaders !== undefined) return;
    flushHeaders = flushHeadersSoon(res, () => res.writeHead(200, headers));
  }

  return {
    res: res as EventEmitter,
    start,
    /** The client has its status: a failure from now on can only be told as an error event. */
    started(): boolean {
      return res.headersSent;
    },
    /** `last`: the answer's last events, `end()` follows in this turn: they wait for it (corked), one socket write for both. */
    write(events: WireEvent[], last = false): boolean {
      if (events.length > 0 && !res.destroyed) {
        // Not started: the headers go with the first events.
        if (!res.headersSent) res.writeHead(200, headers);
        let text = '';
        for (const event of events) text += array ? array.element(event.data) : formatSseEvent(event, newline);
        clearTimeout(flushHeaders);
        writeNow(res, text, last);
      }
      return !res.writableNeedDrain;
    },
    /** Ends a started answer; one never started is left to whoever renders the error that stopped it. */
    end(): void {
      clearTimeout(flushHeaders);
      if (res.destroyed || res.writableEnded || !res.headersSent) {
        // Not ended here: whatever was held for the end still goes.
        if (res.writableCorked > 0 && !res.destroyed) res.uncork();
        return;
      }
      res.end(array ? array.close() : undefined);
    },
  };
}

export type ClientStreamWriter = ReturnType<typeof createClientStreamWriter>;
