import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { Readable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import axios, { type AxiosError, type AxiosInstance } from 'axios';
import { expect } from 'chai';
import nock from 'nock';
import { nodeHttpAdapter } from '../../../core/upstream/node-http-adapter';

interface Server {
  url: string;
  close(): Promise<void>;
}

const servers: Server[] = [];

async function startServer(handler: http.RequestListener): Promise<Server> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const handle = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(handle);
  return handle;
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

async function rejection(promise: Promise<unknown>): Promise<AxiosError> {
  try {
    await promise;
  } catch (error) {
    expect(axios.isAxiosError(error), String(error)).to.equal(true);
    return error as AxiosError;
  }
  throw new Error('expected a rejection');
}

function waitForClose(socket: net.Socket): Promise<void> {
  return socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));
}

describe('nodeHttpAdapter', () => {
  // axios's own defaults (validateStatus 2xx, JSON transformResponse), with the two settings the adapter requires.
  let client: AxiosInstance;
  beforeEach(() => {
    client = axios.create({ adapter: nodeHttpAdapter, maxRedirects: 0, proxy: false });
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('sends method, headers and body and parses a JSON answer through axios transformResponse', async () => {
    let seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string } | undefined;
    const server = await startServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        seen = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(parts).toString('utf8') };
        res.writeHead(200, { 'content-type': 'application/json', 'x-answer': 'yes' });
        res.end('{"ok":true}');
      });
    });
    const res = await client.post(`${server.url}/v1/things?x=1`, { héllo: 'wörld' }, { headers: { 'X-Custom': 'a', 'User-Agent': false } });
    expect(res.status).to.equal(200);
    expect(res.data).to.deep.equal({ ok: true });
    expect(res.headers['x-answer']).to.equal('yes');
    expect(seen?.method).to.equal('POST');
    expect(seen?.url).to.equal('/v1/things?x=1');
    expect(seen?.body).to.equal('{"héllo":"wörld"}');
    expect(seen?.headers['content-length']).to.equal(String(Buffer.byteLength('{"héllo":"wörld"}')));
    expect(seen?.headers['content-type']).to.equal('application/json');
    expect(seen?.headers['x-custom']).to.equal('a');
    expect(seen?.headers).not.to.have.property('user-agent');
  });

  it('sends nodeHeaders as they are, under headers, whose values win; a false header stops only axios defaults', async () => {
    let seen: http.IncomingHttpHeaders | undefined;
    const server = await startServer((req, res) => {
      seen = req.headers;
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    const nodeHeaders = { 'content-type': 'application/json', 'x-stainless-lang': 'js', 'x-both': 'node' };
    await client.post(`${server.url}/v1/x`, Buffer.from('{}'), { headers: { 'content-type': false, 'X-Both': 'axios' }, nodeHeaders });
    expect(seen).to.include({ 'content-type': 'application/json', 'x-stainless-lang': 'js', 'x-both': 'axios', 'content-length': '2' });
    // The caller's object is not written to.
    expect(nodeHeaders).to.deep.equal({ 'content-type': 'application/json', 'x-stainless-lang': 'js', 'x-both': 'node' });
  });

  it('sends Buffer and stream bodies', async () => {
    const bodies: string[] = [];
    const server = await startServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        bodies.push(`${req.headers['content-length'] ?? req.headers['transfer-encoding']}:${Buffer.concat(parts).toString()}`);
        res.end();
      });
    });
    await client.post(server.url, Buffer.from('raw bytes'), { transformRequest: [] });
    await client.post(server.url, Readable.from([Buffer.from('stre'), Buffer.from('amed')]), { transformRequest: [] });
    expect(bodies).to.deep.equal(['9:raw bytes', 'chunked:streamed']);
  });

  it('applies validateStatus: a 4xx or 5xx rejects with the response attached, a custom one lets it through', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(req.url === '/missing' ? 404 : 503, { 'content-type': 'application/json' });
      res.end('{"error":"no"}');
    });
    const missing = await rejection(client.get(`${server.url}/missing`));
    expect(missing.code).to.equal('ERR_BAD_REQUEST');
    expect(missing.message).to.equal('Request failed with status code 404');
    expect(missing.response?.status).to.equal(404);
    expect(missing.response?.data).to.deep.equal({ error: 'no' });
    const down = await rejection(client.get(`${server.url}/down`));
    expect(down.code).to.equal('ERR_BAD_RESPONSE');
    const passed = await client.get(`${server.url}/down`, { validateStatus: () => true });
    expect(passed.status).to.equal(503);
  });

  it('streams with responseType stream: the first chunk arrives before the server has finished', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      void released.then(() => res.end('data: last\n\n'));
    });
    const res = await client.get<Readable>(server.url, { responseType: 'stream' });
    const iterator = res.data[Symbol.asyncIterator]();
    const first = (await iterator.next()) as IteratorResult<Buffer>;
    expect(first.value.toString()).to.equal('data: first\n\n');
    release();
    const rest = (await iterator.next()) as IteratorResult<Buffer>;
    expect(rest.value.toString()).to.equal('data: last\n\n');
  });

  it('returns Buffers for arraybuffer, strips a UTF-8 BOM from text', async () => {
    const server = await startServer((_req, res) => res.end(Buffer.from('\ufeffhello', 'utf8')));
    const bytes = await client.get<Buffer>(server.url, { responseType: 'arraybuffer' });
    expect(Buffer.isBuffer(bytes.data)).to.equal(true);
    expect(bytes.data.subarray(0, 3)).to.deep.equal(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = await client.get<string>(server.url, { responseType: 'text' });
    expect(text.data).to.equal('hello');
  });

  it('decompresses gzip, dropping content-encoding and content-length; decompress: false keeps the raw bytes', async () => {
    const payload = JSON.stringify({ text: 'x'.repeat(3000) });
    const zipped = gzipSync(payload);
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': zipped.length });
      res.end(zipped);
    });
    const res = await client.get<Readable>(server.url, { responseType: 'stream' });
    expect(res.headers['content-encoding']).to.equal(undefined);
    expect(res.headers['content-length']).to.equal(undefined);
    expect(await readAll(res.data)).to.equal(payload);
    const raw = await client.get<Buffer>(server.url, { responseType: 'arraybuffer', decompress: false });
    expect(raw.headers['content-encoding']).to.equal('gzip');
    expect(Buffer.compare(raw.data, zipped)).to.equal(0);
  });

  for (const [framing, encoding, head] of [['a length of 0', 'gzip', { 'content-length': 0 }], ['no chunk', 'gzip', { 'transfer-encoding': 'chunked' }], ['a length of 0', 'br', { 'content-length': 0 }], ['no chunk', 'br', { 'transfer-encoding': 'chunked' }]] as const) {
    it(`reads an empty ${encoding} body (${framing}) as empty, as a proxy's error of no content comes`, async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(503, { 'content-encoding': encoding, ...head });
        res.end();
      });
      const res = await client.get<string>(server.url, { responseType: 'text', validateStatus: () => true });
      expect([res.status, res.data, res.headers['content-encoding']]).to.deep.equal([503, '', undefined]);
    });
  }

  for (const [encoding, compress] of [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
    it(`fails a ${encoding} body whose compressed stream was cut short, though the connection ended cleanly`, async () => {
      const zipped = compress(JSON.stringify({ text: 'x'.repeat(3000), n: Array.from({ length: 500 }, (_, i) => i * 7919) }));
      const cut = zipped.subarray(0, zipped.length - 30);
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': cut.length });
        res.end(cut);
      });
      const error = await rejection(client.get(server.url, { responseType: 'text' }));
      expect(error.message).to.match(/unexpected end of file/i);
      const streamed = await client.get<Readable>(server.url, { responseType: 'stream' });
      expect(await readAll(streamed.data).then(() => 'whole', (e: Error) => e.message)).to.match(/unexpected end of file/i);
    });
  }

  it('fails with ECONNABORTED when the socket is idle for `timeout` ms, ETIMEDOUT with clarifyTimeoutError', async () => {
    const server = await startServer(() => undefined);
    const error = await rejection(client.get(server.url, { timeout: 100 }));
    expect(error.code).to.equal('ECONNABORTED');
    expect(error.message).to.equal('timeout of 100ms exceeded');
    const clarified = await rejection(client.get(server.url, { timeout: 100, timeoutErrorMessage: 'too slow', transitional: { clarifyTimeoutError: true } }));
    expect(clarified.code).to.equal('ETIMEDOUT');
    expect(clarified.message).to.equal('too slow');
  });

  it('cancels on the abort signal: before sending, while waiting (closing the connection) and mid-stream', async () => {
    let serverSocket: net.Socket | undefined;
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = await startServer((req, res) => {
      serverSocket = req.socket;
      if (req.url === '/stream') {
        res.writeHead(200);
        res.write('partial');
      }
      arrived();
    });

    const early = new AbortController();
    early.abort();
    const before = await rejection(client.get(server.url, { signal: early.signal }));
    expect(axios.isCancel(before)).to.equal(true);

    const waiting = new AbortController();
    const pending = client.get(`${server.url}/wait`, { signal: waiting.signal });
    await requestArrived;
    const closed = waitForClose(serverSocket as net.Socket);
    waiting.abort();
    const during = await rejection(pending);
    expect(during.code).to.equal('ERR_CANCELED');
    await closed;

    const midStream = new AbortController();
    const res = await client.get<Readable>(`${server.url}/stream`, { responseType: 'stream', signal: midStream.signal });
    const iterator = res.data[Symbol.asyncIterator]();
    await iterator.next();
    midStream.abort();
    let streamError: unknown;
    try {
      await iterator.next();
    } catch (error) {
      streamError = error;
    }
    expect(axios.isCancel(streamError)).to.equal(true);
    expect(res.data.destroyed).to.equal(true);
  });

  it('wraps transport failures in AxiosErrors that keep the Node code', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await rejection(client.get(`http://127.0.0.1:${port}/`));
    expect(error.code).to.equal('ECONNREFUSED');
    expect((error.cause as NodeJS.ErrnoException | undefined)?.code).to.equal('ECONNREFUSED');
  });

  it('enforces maxContentLength on buffered answers', async () => {
    const server = await startServer((_req, res) => res.end('x'.repeat(5000)));
    const error = await rejection(client.get(server.url, { maxContentLength: 1000, responseType: 'text' }));
    expect(error.code).to.equal('ERR_BAD_RESPONSE');
    expect(error.message).to.equal('maxContentLength size of 1000 exceeded');
  });

  it('returns a redirect as it is, and refuses the options it does not implement instead of ignoring them', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    const redirect = await client.get(server.url, { validateStatus: () => true });
    expect(redirect.status).to.equal(302);
    expect(redirect.headers.location).to.equal('/elsewhere');
    const follow = await rejection(client.get(server.url, { maxRedirects: 5 }));
    expect(follow.code).to.equal('ERR_BAD_OPTION_VALUE');
    const proxied = await rejection(client.get(server.url, { proxy: { host: '127.0.0.1', port: 3128 } }));
    expect(proxied.code).to.equal('ERR_BAD_OPTION_VALUE');
  });

  it('builds the URL from baseURL and params as axios does', async () => {
    let url: string | undefined;
    const server = await startServer((req, res) => {
      url = req.url;
      res.end('{}');
    });
    await axios.create({ adapter: nodeHttpAdapter, maxRedirects: 0, baseURL: `${server.url}/api` }).get('/items', { params: { q: 'a b', n: 2 } });
    expect(url).to.equal('/api/items?q=a+b&n=2');
  });

  it('sends each call to its own URL when URLs repeat (parsed once and kept): path, query, userinfo and invalid ones', async () => {
    const seen: Array<{ url?: string; authorization?: string }> = [];
    const server = await startServer((req, res) => {
      seen.push({ url: req.url, authorization: req.headers.authorization });
      res.end('{}');
    });
    const withUser = server.url.replace('http://', 'http://us%40er:p%3Ass@');
    for (let round = 0; round < 2; round += 1) {
      await client.get(`${server.url}/a?x=1`);
      await client.get(`${server.url}/a?x=2`);
      await client.get(`${withUser}/b`);
      expect((await rejection(client.get('http://[::1'))).code).to.equal('ERR_INVALID_URL');
    }
    const basic = `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`;
    const round = [{ url: '/a?x=1', authorization: undefined }, { url: '/a?x=2', authorization: undefined }, { url: '/b', authorization: basic }];
    expect(seen).to.deep.equal([...round, ...round]);
  });

  it('goes through nock interceptors, as integration specs use them', async () => {
    const scope = nock('https://upstream.example').post('/v1/messages', '{"a":1}').reply(201, { id: 'm1' });
    const res = await client.post('https://upstream.example/v1/messages', { a: 1 });
    expect(res.status).to.equal(201);
    expect(res.data).to.deep.equal({ id: 'm1' });
    expect(scope.isDone()).to.equal(true);
  });
});
