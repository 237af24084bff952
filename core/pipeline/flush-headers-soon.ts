import type { ServerResponse } from 'node:http';

/**
 * Headers set with `writeHead` go out with the first chunk when it is already here; when it is not (a model still
 * thinking), they leave on their own once the pending I/O has been handled, so the client sees the answer start at
 * once. Clear the returned handle (`clearImmediate`) when the first chunk is written.
 */
export function flushHeadersSoon(res: ServerResponse): NodeJS.Immediate {
  return setImmediate(() => {
    if (!res.destroyed && !res.writableEnded) res.flushHeaders();
  });
}
