import type { ServerResponse } from 'node:http';

/**
 * Writes a chunk in one socket write, the headers included when they have not gone yet: uncorked, Node sends a
 * response's headers, and each chunk's framing, as separate writes (syscalls the client then waits on too).
 */
export function writeNow(res: ServerResponse, chunk: Buffer | string): boolean {
  res.cork();
  const ok = res.write(chunk);
  res.uncork();
  return ok;
}
