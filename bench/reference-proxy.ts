import http from 'node:http';
import axios from 'axios';
import express, { type Request, type Response } from 'express';
import { createHttpServer } from '../core/http/create-app';
import { nodeHttpAdapter } from '../core/upstream/node-http-adapter';
import { listenOnLoopback, runProxyChild } from './proxy-child';

/** Hop-by-hop headers, which never pass; a request's host and length are the upstream client's to set. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding'];
const NOT_FORWARDED = [...HOP_BY_HOP, 'host', 'content-length'];

/**
 * The reference: the least a proxy built on the gateway's own libraries costs, as issue 8's feasibility run built
 * it. Express with a raw body, etag and x-powered-by off, on the gateway's own server (createHttpServer: request
 * and response prototypes set), and one pre-built axios instance with `maxRedirects: 0` over the gateway's
 * node:http adapter and a keep-alive agent. No auth, validation, logging, hooks, timeouts or error shapes: what the
 * gateway costs beyond this row is what those cost.
 */
export async function startReferenceProxy(upstreamUrl: string, port = 0): Promise<{ url: string; server: http.Server }> {
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000, maxSockets: 1024 });
  const client = new axios.Axios({ adapter: nodeHttpAdapter, httpAgent: agent, proxy: false, maxRedirects: 0, responseType: 'stream', validateStatus: () => true, transformRequest: [], transformResponse: [] });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.raw({ type: () => true, limit: '10mb' }));
  app.use(async (req: Request, res: Response) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && !NOT_FORWARDED.includes(name)) headers[name] = value;
    const answer = await client.request<http.IncomingMessage>({ method: req.method, url: upstreamUrl + req.originalUrl, headers, data: req.body as Buffer });
    const returned: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.data.headers)) if (value !== undefined && !HOP_BY_HOP.includes(name)) returned[name] = value;
    res.writeHead(answer.status, returned);
    answer.data.pipe(res);
  });
  // The gateway's own server: Express's request/response prototypes set on it, keep-alive as the gateway keeps it.
  const server = createHttpServer(app);
  return { url: await listenOnLoopback(server, port), server };
}

/** Run as a child of the benchmark: `BENCH_UPSTREAM=<url> node bench/reference-proxy.js` (from the build). */
if (require.main === module) runProxyChild(startReferenceProxy);
