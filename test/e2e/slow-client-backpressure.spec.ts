import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { startChild, type Child } from '../../bench/child';
import type { GatewayProcessInput, GatewayReady } from '../../bench/gateway-process';

const LICENSE = 'lic-backpressure-0123456789';
/** Far more than the socket buffers of two loopback hops hold (~10 MB measured with a plain `pipe` proxy). */
const ANSWER_BYTES = 128 * 1024 * 1024;
const EVENT = `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"${'x'.repeat(16_000)}"},"finish_reason":null}]}\n\n`;
const LAST_EVENTS = 'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

/** An upstream that streams ANSWER_BYTES of chat-completions events, honouring backpressure, and counts what it wrote. */
async function startUpstream(): Promise<{ url: string; written(): number; close(): Promise<void> }> {
  let written = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      written = 0;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const pump = (): void => {
        while (written < ANSWER_BYTES) {
          written += EVENT.length;
          if (!res.write(EVENT)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end(LAST_EVENTS);
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    written: () => written,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface RawAnswer {
  bytes: number;
  /** The status line and headers. */
  head: string;
  /** The last bytes of the body. */
  tail: string;
}

/**
 * A client on a raw socket (nock, loaded in this process, replaces `http.request` sockets with ones that read
 * everything at once). It sends the request, does not read while `whilePaused` runs, then reads the whole answer
 * until the gateway closes the connection, as it must after answering a request that asked for `close`.
 */
function slowClient(gatewayUrl: string, requestPath: string, body: unknown, whilePaused: () => Promise<void>): Promise<RawAnswer> {
  const { hostname, port } = new URL(gatewayUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.pause();
      socket.write(
        `POST ${requestPath} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${LICENSE}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
      );
      void whilePaused().then(() => {
        const answer: RawAnswer = { bytes: 0, head: '', tail: '' };
        socket.on('data', (chunk: Buffer) => {
          answer.bytes += chunk.length;
          if (answer.head === '') answer.head = chunk.toString('latin1').split('\r\n\r\n')[0];
          answer.tail = (answer.tail + chunk.toString('latin1')).slice(-300);
        });
        socket.on('end', () => resolve(answer));
        socket.resume();
      }, reject);
    });
    socket.on('error', reject);
  });
}

/** Resolves once `count()` has stopped growing for `quietMs` (or after `maxMs`). */
async function settled(count: () => number, quietMs = 300, maxMs = 5000): Promise<void> {
  const started = Date.now();
  let last = -1;
  let since = Date.now();
  while (Date.now() - started < maxMs) {
    const now = count();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a client that reads slowly (gateway in its own process)', function () {
  this.timeout(60_000);
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: Child<GatewayReady>;
  let work: string;

  before(async () => {
    upstream = await startUpstream();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-backpressure-'));
    const input: GatewayProcessInput = { simulatorUrl: upstream.url, logLevel: 'warn', license: LICENSE, storePath: path.join(work, 'gateway.db'), optional: [] };
    gateway = await startChild<GatewayReady>('gateway', path.resolve(__dirname, '../../bench/gateway-process.ts'), { env: { BENCH_GATEWAY: JSON.stringify(input) } });
  });
  after(async () => {
    await gateway?.stop();
    await upstream?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const cases = [
    { name: 'passthrough', path: '/openai/v1/chat/completions', body: { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }, end: 'data: [DONE]' },
    { name: 'translated', path: '/openai/v1/messages', body: { model: 'm', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] }, end: 'event: message_stop' },
  ];
  for (const { name, path: requestPath, body, end } of cases) {
    it(`holds the upstream back while the client does not read, then delivers the whole answer (${name})`, async () => {
      let writtenWhilePaused = 0;
      const answer = await slowClient(gateway.ready.url, requestPath, body, async () => {
        await settled(upstream.written);
        writtenWhilePaused = upstream.written();
      });
      // Without backpressure the gateway would have read the whole answer into memory by now.
      expect(writtenWhilePaused).to.be.above(0);
      expect(writtenWhilePaused).to.be.below(ANSWER_BYTES / 2);
      expect(answer.head).to.match(/^HTTP\/1\.1 200/);
      expect(answer.head.toLowerCase()).to.include('connection: close');
      expect(answer.bytes).to.be.above(ANSWER_BYTES * 0.9);
      expect(answer.tail).to.include(end);
    });
  }
});
