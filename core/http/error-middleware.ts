import type { NextFunction, Request, Response } from 'express';
import type { ErrorFamily } from '../codecs/codec';
import { GatewayError, isGatewayError, toGatewayError } from '../errors/gateway-error';
import { maskGatewayError, type SecretMasker } from '../errors/mask-gateway-error';
import type { Logger } from '../logging';
import { discardUnreadUpload } from './discard-unread-upload';
import { renderError } from './render-error';

/**
 * The one place errors become responses: GatewayErrors in the endpoint family's shape, anything else as a
 * neutral 500 (logged, never shown), every shown message with the gateway's secrets masked. After a stream has
 * started the connection is just closed.
 */
export function createErrorMiddleware(log: Logger, maskSecrets: SecretMasker) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const gatewayError = isGatewayError(error) ? error : fromExpressError(error);
    if (gatewayError.code === 'GW_INTERNAL') {
      log.error('unhandled error', { requestId: res.locals.requestId, path: req.path, error: describe(gatewayError.cause ?? error) });
    } else {
      log.debug('request failed', { requestId: res.locals.requestId, code: gatewayError.code, reason: gatewayError.message });
    }
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    // Answered before the body was read (a refused license, a body too large): see discardUnreadUpload.
    discardUnreadUpload(req);
    // Internal errors may carry paths or library text: clients get a neutral message and the request id to report.
    // A status outside 400–599 (a plugin's GatewayError with status 99, 200 or 302) is no error answer a client can
    // read, and Node refuses the invalid ones: Express's own handler then sent an HTML page with the stack trace.
    const internal = gatewayError.code === 'GW_INTERNAL' || !isErrorStatus(gatewayError.status);
    if (internal && gatewayError.code !== 'GW_INTERNAL') {
      log.error('error with a status that is not an error status', { requestId: res.locals.requestId, code: gatewayError.code, status: gatewayError.status });
    }
    const shown = internal
      ? new GatewayError('GW_INTERNAL', `internal gateway error (request id ${String(res.locals.requestId)})`)
      : maskGatewayError(gatewayError, maskSecrets);
    renderError(res, (res.locals.family as ErrorFamily | undefined) ?? 'openai', shown);
  };
}

function isErrorStatus(status: unknown): boolean {
  return Number.isInteger(status) && (status as number) >= 400 && (status as number) <= 599;
}

/**
 * Errors Express itself raises before our handlers: http-errors objects, which say their message may be shown
 * (`expose`), and the router's URIError for a malformed `%` escape in a path parameter (status 400). Any other error
 * with a `status` (a plugin's own axios call refused with 401) is the gateway's fault, not the client's: a 401 there
 * read as the client's license refused.
 */
function fromExpressError(error: unknown): GatewayError {
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  if ((expose === true || error instanceof URIError) && typeof status === 'number' && status >= 400 && status < 500) {
    return new GatewayError('GW_INVALID_REQUEST', 'malformed request', { status, cause: error });
  }
  return toGatewayError(error);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
}
