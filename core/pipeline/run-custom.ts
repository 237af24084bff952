import type { ServerResponse } from 'node:http';
import { toGatewayError } from '../errors/gateway-error';
import type { CustomHandler, CustomRequest, RequestContext } from '../hooks/plugin-api';
import { relayBody } from './relay-body';

/**
 * A plugin-answered endpoint (models, images, videos, search): JSON out, or a byte stream piped as it comes, at the
 * pace the client reads it.
 */
export async function runCustom(handle: CustomHandler, request: CustomRequest, ctx: RequestContext, res: ServerResponse): Promise<void> {
  const result = await handle(request, ctx);
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
  await relayBody(result.stream, res, {
    onBreak(error) {
      const gatewayError = toGatewayError(error);
      ctx.log.warn('answer stream failed', { code: gatewayError.code, message: gatewayError.message });
      // A byte stream (a video download, say) has no way to say it was cut short: the connection is dropped.
      return false;
    },
  });
}
