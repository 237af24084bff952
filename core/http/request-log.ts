import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { errorFamilyForPath } from '../hooks/endpoints';
import type { RequestContext } from '../hooks/plugin-api';
import { createAccessLog } from '../logging/create-access-log';
import { modelForLog } from '../models-api/model-name-bounds';
import type { Logger } from '../logging';

const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;
/** The status an access line gives a request whose client left before any answer was sent (nginx's convention). */
const CLIENT_CLOSED_REQUEST = 499;
/** The health probe's path (see createApp). */
export const HEALTH_PATH = '/healthz';

/**
 * Assigns the request id (the client's `x-request-id` when it is sane), echoes it (also as `request-id` to Messages
 * clients), sets the error family from the
 * path, and writes one structured line per request when the answer is done.
 */
export function createRequestLog(log: Logger) {
  const accessLog = createAccessLog(log);
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    const family = errorFamilyForPath(req.path);
    res.locals.family = family;
    res.setHeader('x-request-id', requestId);
    // The Anthropic SDK reads its request id (`_request_id`, `error.requestID`) from `request-id`; a Claude upstream's
    // own id replaces it on passthrough.
    if (family === 'messages') res.setHeader('request-id', requestId);
    // A load balancer's or orchestrator's probe every few seconds would fill the log with lines that say nothing
    // about the traffic; the probe still gets its request id.
    if (req.path === HEALTH_PATH) return next();
    res.once('close', () => {
      if (!log.isInfoEnabled()) return;
      const ctx = res.locals.ctx as RequestContext | undefined;
      // Keys in sorted order, level, message and timestamp included (filled in by the access log): the JSON line
      // writer then serialises this object as it is, without a sorted copy (see createJsonLineWriter).
      accessLog({
        // Unfinished: the client left first, or the answer ended with its format's error event (`error` says why).
        completed: res.writableFinished && ctx?.failedMidway === undefined,
        endpoint: ctx?.endpoint,
        error: ctx?.failedMidway,
        latencyMs: performance.now() - started,
        level: undefined,
        message: undefined,
        method: req.method,
        model: modelForLog(ctx?.model),
        path: req.path,
        platform: ctx?.platform,
        requestId,
        // Nothing answered (the client left first): nginx's 499, not the 200 Node's response starts with.
        status: res.headersSent ? res.statusCode : CLIENT_CLOSED_REQUEST,
        stream: ctx?.stream ?? false,
        timestamp: undefined,
        upstreamLatencyMs: ctx?.upstreamLatencyMs,
      });
    });
    next();
  };
}
