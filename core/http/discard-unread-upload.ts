import type { IncomingMessage } from 'node:http';

/** How long a client answered before its upload ended may go on sending (read and dropped) before it is cut off. */
export const UNREAD_UPLOAD_GRACE_MS = 3000;

/**
 * For an answer given before the request body was read (a refused license, a body too large): the rest of the upload
 * is read and dropped, so a client still sending (an SDK streaming a multipart form) reads the answer rather than a
 * reset, and its connection stays usable. A connection closed at once resets the client's writes, which can discard
 * the answer before the client reads it. An upload that has not ended within the grace is cut off: a slow-loris client
 * would otherwise hold the socket for the server's 300 s request timeout.
 */
export function discardUnreadUpload(req: IncomingMessage, graceMs = UNREAD_UPLOAD_GRACE_MS): void {
  const socket = req.socket;
  // Whole, or the client has gone (its upload cut off): nothing to read, and a timer would only hold the request.
  if (req.complete || socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), graceMs);
  timer.unref();
  // Listeners off again once the upload ended: a keep-alive socket serves many such answers.
  const done = (): void => {
    clearTimeout(timer);
    req.off('end', done);
    socket.off('close', done);
  };
  req.once('end', done);
  socket.once('close', done);
  // A body parser that stopped at its limit left the stream paused; flowing with no reader drops the bytes.
  req.resume();
}
