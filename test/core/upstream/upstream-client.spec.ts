import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { inspect } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import nock from 'nock';
import { GatewayError, isGatewayError } from '../../../core/errors/gateway-error';
import {
  createUpstreamClient,
  readUpstreamBody,
  type UpstreamClient,
  type UpstreamTimeouts,
} from '../../../core/upstream/upstream-client';
import { releaseBody } from '../../../core/upstream/release-body';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const RELAXED: UpstreamTimeouts = { connectMs: 5000, totalMs: 8000, idleMs: 5000 };
const SECRET = 'sk-test-abcdefghijklmnopqrstuvwxyz0123456789';

interface TestServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const servers: Array<{ close(): Promise<void> }> = [];

async function listen(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function startServer(handler: http.RequestListener): Promise<TestServer> {
  const server = http.createServer(handler);
  const port = await listen(server);
  const handle = {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(handle);
  return handle;
}

/** A TCP server that accepts connections and never says a word (so a TLS handshake never completes). */
async function startSilentTcpServer(): Promise<{ port: number; sockets: net.Socket[] }> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.resume(); // read (and drop) what comes, so the peer's FIN is seen
  });
  return { port: await listenTcp(server, sockets), sockets };
}

/** Listens on a loopback port; closed after each test, its sockets destroyed first. */
async function listenTcp(server: net.Server, sockets: net.Socket[]): Promise<number> {
  const port = await listen(server);
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
  return port;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function collect(body: Readable): Promise<{ text: string; error?: unknown }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
    return { text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    return { text: Buffer.concat(chunks).toString('utf8'), error };
  }
}

async function catchError(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    expect(isGatewayError(error), String(error)).to.equal(true);
    return error as GatewayError;
  }
  throw new Error('expected a rejection');
}

function waitFor(emitter: NodeJS.EventEmitter, event: string, ms: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${event}' within ${ms}ms`)), ms);
    emitter.once(event, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * nock wraps every request in its own agent (which defeats pooling) and, on TLS passthrough, strips the
 * listeners of the real socket before destroying it (an uncaught ECANCELED). Some tests step out of it.
 */
async function withoutNock(run: () => Promise<void>): Promise<void> {
  nock.restore();
  try {
    await run();
  } finally {
    nock.activate();
  }
}

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

describe('createUpstreamClient', () => {
  let client: UpstreamClient;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };

  before(() => process.on('unhandledRejection', onUnhandled));
  after(() => process.off('unhandledRejection', onUnhandled));
  beforeEach(() => {
    client = createUpstreamClient();
    unhandled.length = 0;
  });
  afterEach(async () => {
    client.close();
    await Promise.all(servers.splice(0).map((s) => s.close()));
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled, 'unhandled rejections').to.deep.equal([]);
  });

  it('sends method, headers and body as given and streams the response: the first chunk arrives before the server finishes', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let received: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string } | undefined;
    const server = await startServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        received = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(parts).toString('utf8') };
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-upstream': 'yes', 'set-cookie': ['a=1', 'b=2'] });
        res.write('data: first\n\n');
        void released.then(() => res.end('data: last\n\n'));
      });
    });

    const body = '{"model":"m","input":"héllo"}';
    const res = await client.send({
      url: `${server.url}/v1/things?x=1`,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', authorization: `Bearer ${SECRET}`, Connection: 'close', Host: 'evil.example' },
      body,
      timeouts: RELAXED,
    });

    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/event-stream');
    expect(res.headers['x-upstream']).to.equal('yes');
    expect(res.headers['set-cookie']).to.deep.equal(['a=1', 'b=2']);
    expect(res.latencyMs).to.be.a('number').and.to.be.at.least(0);

    const iterator = res.body[Symbol.asyncIterator]();
    const first = (await iterator.next()) as IteratorResult<Buffer>;
    expect(first.value.toString('utf8')).to.equal('data: first\n\n');
    release();
    let rest = '';
    for (let r = (await iterator.next()) as IteratorResult<Buffer>; !r.done; r = (await iterator.next()) as IteratorResult<Buffer>) {
      rest += r.value.toString('utf8');
    }
    expect(rest).to.equal('data: last\n\n');

    expect(received?.method).to.equal('POST');
    expect(received?.url).to.equal('/v1/things?x=1');
    expect(received?.body).to.equal(body);
    expect(received?.headers['content-type']).to.equal('application/json');
    expect(received?.headers.authorization).to.equal(`Bearer ${SECRET}`);
    expect(received?.headers['content-length']).to.equal(String(Buffer.byteLength(body)));
    expect(received?.headers.host).to.equal(`127.0.0.1:${server.port}`);
    // Nothing the caller did not ask for.
    expect(received?.headers).not.to.have.property('user-agent');
    expect(received?.headers).not.to.have.property('accept');
    expect(received?.headers).not.to.have.property('accept-encoding');
  });

  it('cleans header values as axios does: a key pasted with its newline (or blanks around it) still goes out without them; no value is no header', async () => {
    let received: http.IncomingHttpHeaders | undefined;
    const server = await startServer((req, res) => {
      received = req.headers;
      res.end('{}');
    });
    const res = await client.send({
      url: `${server.url}/v1/x`,
      method: 'POST',
      // A JavaScript plugin's values as axios took them: undefined and null left out, arrays and numbers sent as text.
      headers: { authorization: `Bearer ${SECRET}\n`, 'x-api-key': `  ${SECRET}\t`, 'x-plain': 'a b', 'Content-Type': 'application/json', ...({ 'x-none': undefined, 'x-null': null, 'x-list': ['a ', ' b'], 'x-number': 7 } as unknown as Record<string, string>) },
      body: '{}',
      timeouts: RELAXED,
    });
    await readUpstreamBody(res, 1024);
    expect(received).to.include({ authorization: `Bearer ${SECRET}`, 'x-api-key': SECRET, 'x-plain': 'a b', 'content-type': 'application/json', 'x-list': 'a, b', 'x-number': '7' });
    expect(received).to.not.have.any.keys('x-none', 'x-null');
  });

  it('returns non-2xx answers instead of throwing', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(529, { 'content-type': 'application/json' });
      res.end('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}');
    });
    const res = await client.send({ url: `${server.url}/v1/messages`, method: 'POST', headers: {}, body: '{}', timeouts: RELAXED });
    expect(res.status).to.equal(529);
    const json = JSON.parse((await readUpstreamBody(res, 1024)).toString('utf8')) as { error: { type: string } };
    expect(json.error.type).to.equal('overloaded_error');
  });

  it('decompresses gzip bodies and drops content-encoding and content-length', async () => {
    const payload = JSON.stringify({ text: 'x'.repeat(5000) });
    const server = await startServer((_req, res) => {
      const zipped = gzipSync(payload);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': zipped.length });
      res.end(zipped);
    });
    const res = await client.send({
      url: server.url,
      method: 'GET',
      headers: { 'accept-encoding': 'gzip' },
      timeouts: RELAXED,
    });
    expect(res.headers).not.to.have.property('content-encoding');
    expect(res.headers).not.to.have.property('content-length');
    expect((await readUpstreamBody(res, 1_000_000)).toString('utf8')).to.equal(payload);
  });

  it('reuses the keep-alive socket for sequential requests', async () => {
    await withoutNock(async () => {
      const ports: number[] = [];
      const server = await startServer((req, res) => {
        ports.push(req.socket.remotePort ?? -1);
        res.end('ok');
      });
      for (let i = 0; i < 3; i += 1) {
        const res = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: RELAXED });
        expect((await readUpstreamBody(res, 100)).toString()).to.equal('ok');
      }
      expect(ports).to.have.length(3);
      expect(new Set(ports).size, `remote ports ${ports.join(',')}`).to.equal(1);
    });
  });

  /**
   * A raw HTTP server whose connections answer `answered` requests with keep-alive and then close as the next request
   * arrives: the race of an upstream closing an idle pooled socket just as the gateway reuses it.
   */
  async function startClosingAfter(
    answered: number,
    how: 'close' | 'reset' = 'close',
    /** A request it does not answer is read (counted) first, and dropped after `afterMs`, past `head` of an answer. */
    read?: { afterMs: number; head?: string },
  ): Promise<{ url: string; received: string[]; connections: () => number }> {
    const received: string[] = [];
    let connections = 0;
    const sockets: net.Socket[] = [];
    const server = net.createServer((socket) => {
      connections += 1;
      sockets.push(socket);
      socket.on('error', () => undefined);
      let count = 0;
      let buffered = '';
      socket.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('latin1');
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const body = buffered.slice(end + 4, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        if (count >= answered) {
          const drop = (): void => {
            if (how === 'reset') socket.resetAndDestroy();
            else socket.destroy();
          };
          if (!read) return drop();
          received.push(body);
          if (read.head) socket.write(read.head);
          setTimeout(drop, read.afterMs);
          return;
        }
        count += 1;
        received.push(body);
        socket.write(`HTTP/1.1 200 OK\r\nconnection: keep-alive\r\ncontent-length: ${body.length + 3}\r\n\r\nok:${body}`);
      });
    });
    const port = await listenTcp(server, sockets);
    return { url: `http://127.0.0.1:${port}/v1/x`, received, connections: () => connections };
  }

  for (const how of ['close', 'reset'] as const) {
    it(`sends a request again on a new connection when the reused keep-alive socket was dead (${how} before any answer)`, async () => {
      await withoutNock(async () => {
        const upstream = await startClosingAfter(1, how);
        for (const body of ['first', 'second']) {
          const res = await client.send({ url: upstream.url, method: 'POST', headers: {}, body: Buffer.from(body), timeouts: RELAXED });
          expect(res.status).to.equal(200);
          expect((await readUpstreamBody(res, 100)).toString()).to.equal(`ok:${body}`);
        }
        expect(upstream.received).to.deep.equal(['first', 'second']);
        expect(upstream.connections()).to.equal(2);
      });
    });
  }

  for (const [what, read] of [
    ['read it and dropped it later', { afterMs: 400 }],
    ['read it and began an answer', { afterMs: 0, head: 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n' }],
  ] as const) {
    it(`does not send again a request on a reused socket whose upstream ${what}`, async () => {
      await withoutNock(async () => {
        const upstream = await startClosingAfter(1, 'reset', read);
        await readUpstreamBody(await client.send({ url: upstream.url, method: 'POST', headers: {}, body: 'first', timeouts: RELAXED }), 100);
        const error = await catchError(client.send({ url: upstream.url, method: 'POST', headers: {}, body: 'second', timeouts: RELAXED }));
        expect(error.code).to.equal('GW_UPSTREAM_UNREACHABLE');
        expect(upstream.received).to.deep.equal(['first', 'second']);
        expect(upstream.connections()).to.equal(1);
      });
    });
  }

  it('sends a request again past several dead pooled sockets, but never after a failure on a new connection', async () => {
    await withoutNock(async () => {
      // Never answers anything: the request's socket is new, so it is not sent again.
      const never = await startClosingAfter(0);
      const refused = await catchError(client.send({ url: never.url, method: 'POST', headers: {}, body: 'x', timeouts: RELAXED }));
      expect(refused.code).to.equal('GW_UPSTREAM_UNREACHABLE');
      expect(never.connections()).to.equal(1);

      // Two pooled sockets, each dying when reused: the third connection answers.
      const once = await startClosingAfter(1);
      const send = (body: string): Promise<Buffer> =>
        client.send({ url: once.url, method: 'POST', headers: {}, body, timeouts: RELAXED }).then((res) => readUpstreamBody(res, 100));
      await Promise.all([send('a'), send('b')]);
      expect(once.connections()).to.equal(2);
      expect((await send('c')).toString()).to.equal('ok:c');
      expect(once.connections()).to.equal(3);
      expect(once.received).to.deep.equal(['a', 'b', 'c']);
    });
  });

  it('fails with GW_UPSTREAM_TIMEOUT when no connection is established within connectMs', async () => {
    // The TCP connect succeeds but the TLS handshake never completes: the socket is not usable.
    await withoutNock(async () => {
      const silent = await startSilentTcpServer();
      const started = Date.now();
      const error = await catchError(
        client.send({
          url: `https://127.0.0.1:${silent.port}/v1/x`,
          method: 'POST',
          headers: {},
          body: '{}',
          timeouts: { connectMs: 150, totalMs: 5000, idleMs: 5000 },
        }),
      );
      expect(error.code).to.equal('GW_UPSTREAM_TIMEOUT');
      expect(error.message).to.contain('upstream connect timeout after 150ms');
      expect(Date.now() - started).to.be.below(3000);
      expect(silent.sockets).to.have.length(1);
      if (!silent.sockets[0].destroyed) await waitFor(silent.sockets[0], 'close', 2000);
    });
  });

  it('applies the connect timeout to a call waiting for a pooled socket (the agent at its limit hands none over)', async () => {
    await withoutNock(async () => {
      const server = await startServer((_req, res) => res.end('ok'));
      // The agent keeps every request queued, as it does at maxSockets: no socket is ever handed over.
      // Node's own method, which its types leave out.
      const agent = http.Agent.prototype as unknown as { addRequest: (...args: unknown[]) => void };
      const addRequest = agent.addRequest;
      agent.addRequest = function queued(): void {};
      try {
        const started = Date.now();
        const error = await catchError(client.send({ url: `${server.url}/v1/x`, method: 'POST', headers: {}, body: '{}', timeouts: { connectMs: 150, totalMs: 5000, idleMs: 5000 } }));
        expect(error.code).to.equal('GW_UPSTREAM_TIMEOUT');
        expect(error.message).to.contain('upstream connect timeout after 150ms');
        expect(Date.now() - started).to.be.below(2000);
      } finally {
        agent.addRequest = addRequest;
        await server.close();
      }
    });
  });

  it('does not apply the connect timeout to a slow answer on an established connection', async () => {
    const server = await startServer((_req, res) => {
      setTimeout(() => res.end('late'), 300);
    });
    const res = await client.send({
      url: server.url,
      method: 'GET',
      headers: {},
      timeouts: { connectMs: 100, totalMs: 5000, idleMs: 5000 },
    });
    expect((await readUpstreamBody(res, 100)).toString()).to.equal('late');
  });

  it('fails with GW_UPSTREAM_TIMEOUT when the response headers do not come within totalMs', async () => {
    const server = await startServer(() => undefined);
    const error = await catchError(
      client.send({ url: server.url, method: 'GET', headers: {}, timeouts: { connectMs: 1000, totalMs: 200, idleMs: 5000 } }),
    );
    expect(error.code).to.equal('GW_UPSTREAM_TIMEOUT');
    expect(error.message).to.contain('total timeout after 200ms');
  });

  it('destroys a body still streaming when totalMs expires', async () => {
    let serverSocket: net.Socket | undefined;
    const server = await startServer((req, res) => {
      serverSocket = req.socket;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write('data: tick\n\n'), 20);
      res.on('close', () => clearInterval(timer));
    });
    const res = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: { connectMs: 1000, totalMs: 300, idleMs: 5000 } });
    const { text, error } = await collect(res.body);
    expect(text).to.contain('data: tick');
    expect(isGatewayError(error)).to.equal(true);
    expect((error as GatewayError).code).to.equal('GW_UPSTREAM_TIMEOUT');
    expect((error as GatewayError).message).to.contain('total timeout');
    if (serverSocket && !serverSocket.destroyed) await waitFor(serverSocket, 'close', 2000);
  });

  it('destroys the body with GW_UPSTREAM_TIMEOUT when no bytes come for idleMs', async () => {
    let serverSocket: net.Socket | undefined;
    const server = await startServer((req, res) => {
      serverSocket = req.socket;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n'); // then stall
    });
    const res = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: { connectMs: 1000, totalMs: 8000, idleMs: 200 } });
    const { text, error } = await collect(res.body);
    expect(text).to.equal('data: one\n\n');
    expect((error as GatewayError).code).to.equal('GW_UPSTREAM_TIMEOUT');
    expect((error as GatewayError).message).to.contain('idle timeout');
    if (serverSocket && !serverSocket.destroyed) await waitFor(serverSocket, 'close', 2000);
  });

  it('keeps a stream alive while bytes keep coming, even past idleMs in total', async () => {
    const server = await startServer((_req, res) => {
      let n = 0;
      const timer = setInterval(() => {
        n += 1;
        if (n === 8) {
          clearInterval(timer);
          res.end('end');
        } else res.write('x');
      }, 50);
    });
    const res = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: { connectMs: 1000, totalMs: 5000, idleMs: 200 } });
    expect((await readUpstreamBody(res, 100)).toString()).to.equal('xxxxxxxend');
  });

  it('does not count a slow reader as an idle upstream: bytes waiting to be read keep the answer alive past idleMs', async () => {
    // Real sockets: nock's interceptor socket closes under a reader that pauses, whatever the client does.
    await withoutNock(async () => {
      const payload = 'y'.repeat(256 * 1024);
      const server = await startServer((_req, res) => res.end(payload));
      const res = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: { connectMs: 1000, totalMs: 5000, idleMs: 150 } });
      // Nothing read for more than twice idleMs, while the upstream has long sent everything.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await readUpstreamBody(res, 1024 * 1024)).toString()).to.equal(payload);
    });
  });

  for (const via of ['real sockets', 'nock\'s interceptor'] as const) {
    it(`fails a body whose connection the upstream closes mid-way (no reset) with a GatewayError naming host:port (${via})`, async () => {
      const run = async (): Promise<void> => {
        const server = await startServer((req, res) => {
          res.writeHead(200, { 'content-length': '1000' });
          res.write('only part');
          setTimeout(() => req.socket.end(), 20);
        });
        const res = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: RELAXED });
        const { text, error } = await collect(res.body);
        expect(text).to.equal('only part');
        expect(isGatewayError(error)).to.equal(true);
        expect((error as GatewayError).code).to.equal('GW_UPSTREAM_UNREACHABLE');
        expect((error as GatewayError).message).to.contain(`127.0.0.1:${server.port}`);
      };
      await (via === 'real sockets' ? withoutNock(run) : run());
    });
  }

  it('gives a body whose declared length ends before the bytes sent (a length counted in characters) whole and at once', async () => {
    await withoutNock(async () => {
      const body = JSON.stringify({ text: 'Grüße, ça va? 你好' });
      const raw = net.createServer((socket) => socket.once('data', () => socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`)));
      const port = await listen(raw);
      try {
        const started = Date.now();
        const res = await client.send({ url: `http://127.0.0.1:${port}/x`, method: 'POST', headers: {}, body: '{}', timeouts: { connectMs: 1000, totalMs: 10_000, idleMs: 5000 } });
        const { text, error } = await collect(res.body);
        expect(error).to.equal(undefined);
        expect(text).to.equal(Buffer.from(body).subarray(0, body.length).toString('utf8'));
        expect(Date.now() - started).to.be.below(2000);
      } finally {
        raw.close();
      }
    });
  });

  it('fails a body the HTTP parser refuses in the read that carried it (a bad chunk size) at once, not at the idle timeout', async () => {
    await withoutNock(async () => {
      const raw = net.createServer((socket) => socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\nZZ\r\nxx\r\n0\r\n\r\n')));
      const port = await listen(raw);
      try {
        const started = Date.now();
        const res = await client.send({ url: `http://127.0.0.1:${port}/x`, method: 'GET', headers: {}, timeouts: { connectMs: 1000, totalMs: 10_000, idleMs: 5000 } });
        const { error } = await collect(res.body);
        expect(isGatewayError(error), String(error)).to.equal(true);
        expect(Date.now() - started).to.be.below(2000);
      } finally {
        raw.close();
      }
    });
  });

  it('closes the upstream connection promptly when the caller aborts while waiting for headers', async () => {
    let serverSocket: net.Socket | undefined;
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = await startServer((req) => {
      serverSocket = req.socket;
      arrived();
    });
    const controller = new AbortController();
    const pending = client.send({ url: server.url, method: 'POST', headers: {}, body: '{}', signal: controller.signal, timeouts: RELAXED });
    await requestArrived;
    const closed = waitFor(serverSocket as net.Socket, 'close', 2000);
    controller.abort();
    const error = await catchError(pending);
    expect(error.message).to.contain('aborted');
    await closed;
  });

  it('closes the upstream connection promptly when the caller aborts mid-stream, without unhandled errors', async () => {
    let serverSocket: net.Socket | undefined;
    const server = await startServer((req, res) => {
      serverSocket = req.socket;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    });
    const controller = new AbortController();
    const res = await client.send({ url: server.url, method: 'GET', headers: {}, signal: controller.signal, timeouts: RELAXED });
    const iterator = res.body[Symbol.asyncIterator]();
    await iterator.next();
    const closed = waitFor(serverSocket as net.Socket, 'close', 2000);
    controller.abort();
    await closed;
    expect(res.body.destroyed).to.equal(true);
  });

  it('does not crash when the caller aborts and nobody listens on the body', async () => {
    let serverSocket: net.Socket | undefined;
    const server = await startServer((req, res) => {
      serverSocket = req.socket;
      res.writeHead(200);
      res.write('partial');
    });
    const controller = new AbortController();
    await client.send({ url: server.url, method: 'GET', headers: {}, signal: controller.signal, timeouts: RELAXED });
    const closed = waitFor(serverSocket as net.Socket, 'close', 2000);
    controller.abort();
    await closed;
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await catchError(
      client.send({ url: 'http://127.0.0.1:9/', method: 'GET', headers: {}, signal: controller.signal, timeouts: RELAXED }),
    );
    expect(error.message).to.contain('aborted');
  });

  it('maps ECONNREFUSED to GW_UPSTREAM_UNREACHABLE naming host:port and never the credentials', async () => {
    const port = await freePort();
    const error = await catchError(
      client.send({
        url: `http://user:${SECRET}@127.0.0.1:${port}/v1beta/models/m:generateContent?key=${SECRET}`,
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, 'x-goog-api-key': SECRET },
        body: '{}',
        timeouts: RELAXED,
      }),
    );
    expect(error.code).to.equal('GW_UPSTREAM_UNREACHABLE');
    expect(error.message).to.contain(`127.0.0.1:${port}`);
    expect(error.message).to.contain('ECONNREFUSED');
    const everything = inspect(error, { depth: 10, showHidden: true }) + JSON.stringify(error) + String(error.stack);
    expect(everything).not.to.contain(SECRET);
    expect(everything).not.to.contain('sk-test-');
  });

  it('maps a connection reset mid-body to a GatewayError on the body stream and in readUpstreamBody', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('only part');
      setTimeout(() => req.socket.destroy(), 20);
    });
    const res = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: RELAXED });
    const error = await catchError(readUpstreamBody(res, 10_000));
    expect(error.code).to.equal('GW_UPSTREAM_UNREACHABLE');
    expect(error.message).to.contain(`127.0.0.1:${server.port}`);
  });

  it('works against nock interceptors, as integration specs use them', async () => {
    const scope = nock('https://upstream.example')
      .post('/v1/messages', '{"stream":true}')
      .matchHeader('x-api-key', SECRET)
      .reply(200, 'event: ping\ndata: {}\n\n', { 'content-type': 'text/event-stream' })
      .get('/down')
      // nock 14 only fails the request for an Error instance; a plain object leaves it hanging.
      .replyWithError(Object.assign(new Error(`socket hang up ${SECRET}`), { code: 'ECONNRESET' }));
    const res = await client.send({
      url: 'https://upstream.example/v1/messages',
      method: 'POST',
      headers: { 'x-api-key': SECRET, 'content-type': 'application/json' },
      body: '{"stream":true}',
      timeouts: { connectMs: 1000, totalMs: 5000, idleMs: 5000 },
    });
    expect(res.status).to.equal(200);
    expect((await readUpstreamBody(res, 1000)).toString()).to.equal('event: ping\ndata: {}\n\n');
    const error = await catchError(client.send({ url: 'https://upstream.example/down', method: 'GET', headers: {}, timeouts: RELAXED }));
    expect(error.code).to.equal('GW_UPSTREAM_UNREACHABLE');
    expect(error.message).to.equal('upstream upstream.example:443 unreachable (ECONNRESET)');
    expect(inspect(error, { depth: 10 })).not.to.contain(SECRET);
    expect(scope.isDone()).to.equal(true);
  });

  it('clears its timers once the body has been read or destroyed', async () => {
    const server = await startServer((_req, res) => res.end('done'));
    const long: UpstreamTimeouts = { connectMs: 60_000, totalMs: 60_000, idleMs: 60_000 };
    const baseline = activeTimers();

    const res = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: long });
    expect(activeTimers()).to.be.above(baseline);
    expect((await readUpstreamBody(res, 100)).toString()).to.equal('done');
    await new Promise((resolve) => setImmediate(resolve));
    expect(activeTimers()).to.equal(baseline);

    const res2 = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: long });
    res2.body.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(activeTimers()).to.equal(baseline);
  });
});

describe('readUpstreamBody', () => {
  let client: UpstreamClient;
  beforeEach(() => (client = createUpstreamClient()));
  afterEach(async () => {
    client.close();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('rejects a body larger than the limit with GW_UPSTREAM_BAD_RESPONSE', async () => {
    const server = await startServer((_req, res) => {
      res.write('x'.repeat(600));
      res.end('x'.repeat(600));
    });
    const res = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: RELAXED });
    const error = await catchError(readUpstreamBody(res, 1000));
    expect(error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    expect(error.message).to.contain('1000');
    expect(res.body.destroyed).to.equal(true);
  });

  it('rejects at once when content-length already exceeds the limit', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '5000' });
      res.write('x');
    });
    const res = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: RELAXED });
    const error = await catchError(readUpstreamBody(res, 1000));
    expect(error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
  });

  it('returns a body exactly at the limit', async () => {
    const server = await startServer((_req, res) => res.end('y'.repeat(1000)));
    const res = await client.send({ url: server.url, method: 'GET', headers: {}, timeouts: RELAXED });
    expect((await readUpstreamBody(res, 1000)).length).to.equal(1000);
  });

  it('joins the chunks of a body in order, string chunks included', async () => {
    const body = new Readable({ read() {} });
    const read = readUpstreamBody({ body }, 1000);
    body.push(Buffer.from('héllo, '));
    setImmediate(() => {
      body.push('wörld');
      body.push(null);
    });
    expect((await read).toString('utf8')).to.equal('héllo, wörld');
  });

  it('rejects a body that failed before it was read, instead of waiting for events already emitted', async () => {
    const body = new Readable({ read() {} });
    body.on('error', () => {});
    body.destroy(new Error('socket hang up'));
    await new Promise((resolve) => setImmediate(resolve));
    const error = await catchError(readUpstreamBody({ body }, 1000));
    expect(error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    expect((error.cause as Error).message).to.equal('socket hang up');
  });

  it('passes on the GatewayError a body fails with', async () => {
    const body = new Readable({ read() {} });
    const read = readUpstreamBody({ body }, 1000);
    body.push('partial');
    body.destroy(new GatewayError('GW_UPSTREAM_TIMEOUT', 'upstream idle timeout'));
    const error = await catchError(read);
    expect(error.code).to.equal('GW_UPSTREAM_TIMEOUT');
  });

  it('rejects a body destroyed before its end without an error', async () => {
    const body = new Readable({ read() {} });
    const read = readUpstreamBody({ body }, 1000);
    body.push('partial');
    setImmediate(() => body.destroy());
    const error = await catchError(read);
    expect(error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    expect((error.cause as NodeJS.ErrnoException).code).to.equal('ERR_STREAM_PREMATURE_CLOSE');
  });
});

describe('createUpstreamClient and releaseBody', () => {
  let client: UpstreamClient;
  beforeEach(() => (client = createUpstreamClient()));
  afterEach(async () => {
    client.close();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('keeps a large body while the socket still writes it (an upstream that answers before reading), releases it after', async () => {
    // Larger than loopback's socket buffers, so the write is still in progress when the answer's headers arrive.
    const body = Buffer.alloc(32 * 1024 * 1024, 'b');
    let readRest: () => void = () => {};
    let received = 0;
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.flushHeaders();
      readRest = () => {
        req.on('data', (chunk: Buffer) => (received += chunk.length));
        req.on('end', () => res.end('done'));
      };
    });
    const res = await client.send({ url: server.url, method: 'POST', headers: {}, body, timeouts: RELAXED });
    expect(res.status).to.equal(200);
    expect(releaseBody(body), 'released while being written').to.equal(false);
    expect(body.length).to.equal(32 * 1024 * 1024);
    readRest();
    expect((await readUpstreamBody(res, 1000)).toString()).to.equal('done');
    expect(received).to.equal(32 * 1024 * 1024);
    // The request's last write has completed by now, or within a turn or two of the loop.
    let released = releaseBody(body);
    for (let turn = 0; !released && turn < 50; turn += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      released = releaseBody(body);
    }
    expect(released).to.equal(true);
    expect(body.length).to.equal(0);
  });

  it('keeps memory a socket still writes through another view of it (another Buffer over the same memory)', async () => {
    const body = Buffer.alloc(32 * 1024 * 1024, 'b');
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      res.flushHeaders();
    });
    const res = await client.send({ url: server.url, method: 'POST', headers: {}, body: body.subarray(0), timeouts: RELAXED });
    expect(releaseBody(body), 'released while the socket writes it').to.equal(false);
    res.body.destroy();
  });

  it('leaves a body releasable when no request was ever made (signal aborted already, URL refused)', async () => {
    const aborted = new AbortController();
    aborted.abort();
    const first = Buffer.alloc(256 * 1024, 'a');
    const second = Buffer.alloc(256 * 1024, 'a');
    await catchError(client.send({ url: 'http://127.0.0.1:9/', method: 'POST', headers: {}, body: first, signal: aborted.signal, timeouts: RELAXED }));
    await catchError(client.send({ url: 'not a url', method: 'POST', headers: {}, body: second, timeouts: RELAXED }));
    expect(releaseBody(first)).to.equal(true);
    expect(releaseBody(second)).to.equal(true);
  });

  it('does not keep a large request body reachable while the answer streams', async () => {
    const server = await startServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
      });
    });
    // A body no one releases (as a plugin's own resend is): only the client could still hold it.
    let sentBody: WeakRef<Buffer> | undefined;
    const res = await (async () => {
      const body = Buffer.from(JSON.stringify({ contents: 'x'.repeat(1024 * 1024) }));
      sentBody = new WeakRef(body);
      return client.send({ url: server.url, method: 'POST', headers: {}, body, timeouts: RELAXED });
    })();
    res.body.on('data', () => undefined);
    for (let i = 0; i < 5; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      collectGarbage();
    }
    const kept = sentBody?.deref() !== undefined;
    res.body.destroy();
    expect(kept, 'the 1 MB request body is still reachable while the answer streams').to.equal(false);
  });

  it('releases a body the upstream has read whole before it answered', async () => {
    const body = Buffer.alloc(256 * 1024, 'c');
    const server = await startServer((req, res) => {
      let received = 0;
      req.on('data', (chunk: Buffer) => (received += chunk.length));
      req.on('end', () => res.end(String(received)));
    });
    const res = await client.send({ url: server.url, method: 'POST', headers: {}, body, timeouts: RELAXED });
    expect((await readUpstreamBody(res, 1000)).toString()).to.equal(String(256 * 1024));
    expect(releaseBody(body)).to.equal(true);
  });
});
