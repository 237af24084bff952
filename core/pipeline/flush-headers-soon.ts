import type { ServerResponse } from 'node:http';

/**
 * How long a stream's headers wait for its first chunk. An upstream that sends its headers a moment before its first
 * event (the usual case) then has both leave in one write (one syscall, one wake-up of the client, on the path to the
 * first token), where flushing them at once wrote them alone; one still thinking has its client see the answer start
 * this soon.
 */
export const HEADERS_WAIT_MS = 5;

/**
 * Headers set with `writeHead` go out with the first chunk when it comes within HEADERS_WAIT_MS; when it does not (a
 * model still thinking), they leave on their own then. Given `writeHead`, the head is not set yet, and is set then
 * unless a chunk has set it since. Clear the returned timer (`clearTimeout`) when the first chunk is written.
 */
export function flushHeadersSoon(res: ServerResponse, writeHead?: () => void): NodeJS.Timeout {
  return setTimeout(() => {
    if (res.destroyed || res.writableEnded) return;
    if (writeHead) {
      if (res.headersSent) return;
      writeHead();
    }
    res.flushHeaders();
  }, HEADERS_WAIT_MS);
}
