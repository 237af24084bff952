import type { ServerResponse } from 'node:http';
import type { CustomHandler, CustomRequest, RequestContext } from '../hooks/plugin-api';

/** A plugin-answered endpoint (models, images, videos, search): JSON out, or a byte stream piped as it comes. */
export async function runCustom(handle: CustomHandler, request: CustomRequest, ctx: RequestContext, res: ServerResponse): Promise<void> {
  const result = await handle(request, ctx);
  if ('json' in result) {
    const body = JSON.stringify(result.json);
    res.writeHead(result.status, { ...result.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(result.status, result.headers);
  try {
    for await (const chunk of result.stream as AsyncIterable<Buffer>) {
      if (res.destroyed) break;
      if (!res.write(chunk)) await new Promise((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
    }
  } finally {
    if (!result.stream.destroyed) result.stream.destroy();
    if (!res.writableEnded) res.end();
  }
}
