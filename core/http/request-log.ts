import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { errorFamilyForPath } from '../hooks/endpoints';
import type { RequestContext } from '../hooks/plugin-api';
import { createAccessLog } from '../logging/create-access-log';
import type { Logger } from '../logging';

const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Assigns the request id (the client's `x-request-id` when it is sane), echoes it, sets the error family from the
 * path, and writes one structured line per request when the answer is done.
 */
export function createRequestLog(log: Logger) {
  const accessLog = createAccessLog(log);
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.locals.family = errorFamilyForPath(req.path);
    res.setHeader('x-request-id', requestId);
    res.once('close', () => {
      if (!log.isInfoEnabled()) return;
      const ctx = res.locals.ctx as RequestContext | undefined;
      accessLog({
        requestId,
        method: req.method,
        path: req.path,
        platform: ctx?.platform,
        endpoint: ctx?.endpoint,
        model: ctx?.model,
        stream: ctx?.stream ?? false,
        status: res.statusCode,
        completed: res.writableFinished,
        latencyMs: Number(process.hrtime.bigint() - started) / 1e6,
        upstreamLatencyMs: ctx?.upstreamLatencyMs,
      });
    });
    next();
  };
}
