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
      log.debug('request failed', { requestId: res.locals.requestId, code: gatewayError.code, message: gatewayError.message });
    }
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    // Answered before the body was read (a refused license, a body too large): see discardUnreadUpload.
    discardUnreadUpload(req);
    // Internal errors may carry paths or library text: clients get a neutral message and the request id to report.
    const shown = gatewayError.code === 'GW_INTERNAL'
      ? new GatewayError('GW_INTERNAL', `internal gateway error (request id ${String(res.locals.requestId)})`)
      : maskGatewayError(gatewayError, maskSecrets);
    renderError(res, (res.locals.family as ErrorFamily | undefined) ?? 'openai', shown);
  };
}

/** Errors Express itself raises before our handlers (e.g. a malformed URL). */
function fromExpressError(error: unknown): GatewayError {
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new GatewayError('GW_INVALID_REQUEST', 'malformed request', { status, cause: error });
  }
  return toGatewayError(error);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
}
