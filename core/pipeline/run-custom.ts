import type { ServerResponse } from 'node:http';
import { toGatewayError } from '../errors/gateway-error';
import type { CustomHandler, CustomRequest, CustomResult, RequestContext } from '../hooks/plugin-api';
import { createCredentialMasker } from '../errors/mask-echoed-credentials';
import { createErrorEventFollower } from '../sse/follow-error-event';
import { createEventBoundaryFollower } from '../sse/follow-event-boundary';
import { formatSseEvent } from '../sse/format-sse-event';
import { relayBody } from './relay-body';
import { writeNow } from './write-now';

/**
 * A plugin-answered endpoint (models, images, videos, search): JSON out, or a byte stream piped as it comes, at the
 * pace the client reads it.
 */
export async function runCustom(handle: CustomHandler, request: CustomRequest, ctx: RequestContext, res: ServerResponse): Promise<void> {
  const result: unknown = await handle(request, ctx);
  if (!isCustomResult(result)) {
    // A plugin's fault: answered as one (a neutral 500), not as a 200 with an empty body.
    throw toGatewayError(new TypeError(`platform "${ctx.platform}" answered ${ctx.endpoint} with no status and json or stream`));
  }
  if ('json' in result) {
    const body = JSON.stringify(result.json);
    res.writeHead(result.status, { ...result.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(result.status, result.headers);
  if (res.req?.method === 'HEAD') {
    // Express answers HEAD with the GET route: the headers say it all, so the bytes are not fetched at all
    // (destroying the stream closes the upstream call); a 1 GB video is not pulled through just to be discarded.
    result.stream.destroy();
    res.end();
    return;
  }
  // An event stream's error event of ours must start where an event may start.
  const boundary = result.errorEvents ? createEventBoundaryFollower() : undefined;
  // The upstream's own error event, relayed: the answer did not end as a whole one (the access line says so).
  const opensErrorEvent = boundary ? createErrorEventFollower() : undefined;
  await relayBody(result.stream, res, {
    mask: result.credentials ? createCredentialMasker(result.credentials) : undefined,
    onChunk: boundary
      ? (chunk) => {
          boundary.push(chunk);
          if (ctx.failedMidway === undefined && opensErrorEvent?.(chunk)) ctx.failedMidway = 'upstream_error_event';
        }
      : undefined,
    onBreak(error) {
      const gatewayError = toGatewayError(error);
      ctx.log.warn('answer stream failed', { code: gatewayError.code, reason: gatewayError.message });
      // For the access line: the answer under way did not end as a whole one (as a passthrough stream's break).
      ctx.failedMidway = gatewayError.code.toLowerCase();
      // A byte stream (a video download, say) has no way to say it was cut short: the connection is dropped. An event
      // stream ends with its own error event, when the event the upstream left open can be ended first.
      const prefix = boundary?.joiningPrefix();
      if (!result.errorEvents || prefix === undefined) return false;
      writeNow(res, prefix + result.errorEvents(gatewayError).map((event) => formatSseEvent(event)).join(''));
      return true;
    },
  });
}

function isCustomResult(value: unknown): value is CustomResult {
  if (typeof value !== 'object' || value === null) return false;
  const { status, stream } = value as { status?: unknown; stream?: unknown };
  if (!Number.isInteger(status)) return false;
  if ('json' in value) return true;
  return typeof (stream as { pipe?: unknown } | undefined)?.pipe === 'function' && typeof (value as { headers?: unknown }).headers === 'object';
}
