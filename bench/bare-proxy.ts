import http from 'node:http';
import { listenOnLoopback, runProxyChild } from './proxy-child';

/**
 * The floor: the least a Node forwarding proxy can do. Method, path, headers and body go to the upstream over a
 * keep-alive agent, the answer is piped back as it comes. No parsing, no validation, no logging: every gateway
 * figure is also reported as a multiple of this one.
 */
export async function startBareProxy(upstreamUrl: string, port = 0): Promise<{ url: string; server: http.Server }> {
  const upstream = new URL(upstreamUrl);
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000, maxSockets: 1024 });
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    delete headers.connection;
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) forward.destroy();
    });
    req.pipe(forward);
  });
  server.keepAliveTimeout = 65_000;
  return { url: await listenOnLoopback(server, port), server };
}

/** Run as a child of the benchmark: `BENCH_UPSTREAM=<url> node bench/bare-proxy.js` (from the build). */
if (require.main === module) runProxyChild(startBareProxy);
