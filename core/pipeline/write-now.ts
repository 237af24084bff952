import type { ServerResponse } from 'node:http';

/**
 * Writes a chunk in one socket write, the headers included when they have not gone yet: uncorked, Node sends a
 * response's headers, and each chunk's framing, as separate writes (syscalls the client then waits on too).
 * `beforeEnd`: the response ends in this turn of the event loop: the chunk stays corked, and the end (which uncorks
 * fully) takes it and the chunked terminator in the same write.
 */
export function writeNow(res: ServerResponse, chunk: Buffer | string, beforeEnd = false): boolean {
  if (beforeEnd) res.cork();
  res.cork();
  const ok = res.write(chunk);
  res.uncork();
  return ok;
}
