import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveStats } from './process-stats';

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
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Run as a child of the benchmark: `BENCH_UPSTREAM=<url> node --import tsx bench/bare-proxy.ts`. */
if (require.main === module) {
  const target = process.env.BENCH_UPSTREAM;
  if (!target) throw new Error('BENCH_UPSTREAM is not set');
  void startBareProxy(target).then(({ url }) => {
    // A graceful exit, so that `node --cpu-prof` can write its profile.
    process.once('SIGTERM', () => process.exit(0));
    serveStats();
    process.send?.({ ready: true, url });
  });
}
