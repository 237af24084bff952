import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveStats } from './process-stats';

/** Listens on loopback (`port` 0: any free one) and answers the server's base URL. */
export async function listenOnLoopback(server: http.Server, port: number): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A proxy as a child of the benchmark (the floor, the reference): started in front of `BENCH_UPSTREAM`, it tells its
 * parent its URL once ready and answers the parent's questions about its CPU and memory. SIGTERM exits gracefully,
 * so that `node --cpu-prof` can write its profile.
 */
export function runProxyChild(start: (upstreamUrl: string) => Promise<{ url: string }>): void {
  const target = process.env.BENCH_UPSTREAM;
  if (!target) throw new Error('BENCH_UPSTREAM is not set');
  void start(target).then(({ url }) => {
    process.once('SIGTERM', () => process.exit(0));
    serveStats();
    process.send?.({ ready: true, url });
  });
}
