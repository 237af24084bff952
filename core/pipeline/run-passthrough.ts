import type { ServerResponse } from 'node:http';
import { CODECS } from '../codecs';
import { toGatewayError } from '../errors/gateway-error';
import type { GatewayHooks } from '../hooks/gateway-hooks';
import type { RequestContext, UpstreamRequest } from '../hooks/plugin-api';
import { formatSseEvent } from '../sse/format-sse-event';
import type { WireFormat } from '../unified/unified-request';
import { callPlatform } from './call-platform';
import { returnableResponseHeaders } from './forward-headers';

export interface PassthroughInput {
  format: WireFormat | 'other';
  method: string;
  /** Path and query below the platform segment, as the client sent them (license query removed). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  json?: Record<string, unknown>;
}

/**
 * Native format: the client's bytes go upstream unchanged (credentials swapped by the plugin) and the upstream's
 * bytes come back unchanged, chunk by chunk as they arrive.
 */
export async function runPassthrough(hooks: GatewayHooks, input: PassthroughInput, ctx: RequestContext, res: ServerResponse): Promise<void> {
  const request: UpstreamRequest = {
    mode: 'passthrough',
    format: input.format,
    method: input.method,
    path: input.path,
    headers: input.headers,
    body: input.body,
    json: input.json,
    stream: ctx.stream,
  };
  const upstream = await callPlatform(hooks, request, ctx);
  res.writeHead(upstream.status, returnableResponseHeaders(upstream.headers));
  res.flushHeaders();
  try {
    for await (const chunk of upstream.body as AsyncIterable<Buffer>) {
      if (!res.write(chunk)) await waitForDrain(res);
      if (res.destroyed) break;
    }
  } catch (error) {
    if (!ctx.signal.aborted) {
      const gatewayError = toGatewayError(error);
      ctx.log.warn('upstream stream failed', { code: gatewayError.code, message: gatewayError.message });
      // A native stream that breaks mid-way ends with that format's own error event, as the upstream would send it.
      if (ctx.stream && input.format !== 'other') {
        res.write(CODECS[input.format].encodeStreamError(gatewayError).map(formatSseEvent).join(''));
      }
    }
  } finally {
    if (!upstream.body.destroyed) upstream.body.destroy();
    if (!res.writableEnded) res.end();
  }
}

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
