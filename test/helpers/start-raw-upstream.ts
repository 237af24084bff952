import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the upstream does with a request, once its whole body has arrived. */
export type RawUpstreamHandler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;

export interface RawUpstream {
  url: string;
  /** Sets how the following requests are answered. */
  handle(handler: RawUpstreamHandler): void;
  close(): Promise<void>;
}

/** A bare node:http upstream on loopback whose behaviour each test sets, byte for byte. */
export async function startRawUpstream(): Promise<RawUpstream> {
  let current: RawUpstreamHandler = (_req, res) => res.end();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => current(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    handle: (handler) => (current = handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
