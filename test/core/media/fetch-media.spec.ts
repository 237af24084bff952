import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { expect } from 'chai';
import nock from 'nock';
import { fetchMedia, type FetchMediaOptions } from '../../../core/media/fetch-media';
import { isGatewayError, type GatewayError } from '../../../core/errors/gateway-error';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const GUARDED: FetchMediaOptions = { maxBytes: 1024 * 1024, timeoutMs: 3000, allowPrivateAddresses: false, field: 'messages[0].content[1].image_url' };
const OPEN: FetchMediaOptions = { ...GUARDED, allowPrivateAddresses: true };

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A loopback server that counts the requests it received, so a test can prove the guard never connected. */
async function startServer(handler: Handler): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected the fetch to fail');
}

describe('fetchMedia', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    server = await startServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      switch (url.pathname) {
        case '/image.png':
          res.writeHead(200, { 'content-type': 'image/png; charset=binary', 'content-length': PNG.length });
          res.end(PNG);
          return;
        case '/untyped':
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          res.end(PNG);
          return;
        case '/gzipped':
          res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip' });
          res.end(zlib.gzipSync(PNG));
          return;
        case '/redirect':
          res.writeHead(302, { location: '/image.png' });
          res.end();
          return;
        case '/loop':
          res.writeHead(301, { location: `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` });
          res.end();
          return;
        case '/declared-huge':
          res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 10 * 1024 * 1024 });
          res.write(Buffer.alloc(1024));
          return;
        case '/endless': {
          res.writeHead(200, { 'content-type': 'video/mp4' });
          const chunk = Buffer.alloc(64 * 1024);
          const pump = (): void => {
            while (!res.destroyed && res.write(chunk));
            if (!res.destroyed) res.once('drain', pump);
          };
          pump();
          return;
        }
        case '/hang':
          return;
        case '/missing':
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not here');
          return;
        default:
          res.writeHead(500);
          res.end();
      }
    });
  });
  after(() => server.close());
  beforeEach(() => {
    server.hits.length = 0;
  });

  describe('when private addresses are allowed', () => {
    it('downloads the bytes with the type the server declares', async () => {
      const media = await fetchMedia(`${server.url}/image.png`, OPEN);
      expect(media.mediaType).to.equal('image/png');
      expect(media.data.equals(PNG)).to.equal(true);
    });

    it('sniffs the type when the server declares a generic one', async () => {
      const media = await fetchMedia(`${server.url}/untyped`, OPEN);
      expect(media.mediaType).to.equal('image/png');
    });

    it('decodes a compressed body', async () => {
      const media = await fetchMedia(`${server.url}/gzipped`, OPEN);
      expect(media.data.equals(PNG)).to.equal(true);
    });

    it('follows a redirect', async () => {
      const media = await fetchMedia(`${server.url}/redirect`, OPEN);
      expect(media.data.equals(PNG)).to.equal(true);
      expect(media.finalUrl).to.equal(`${server.url}/image.png`);
    });

    it('gives up after five redirects', async () => {
      const error = await failure(fetchMedia(`${server.url}/loop`, OPEN));
      expect(error.code).to.equal('GW_INVALID_REQUEST');
      expect(error.message).to.equal('messages[0].content[1].image_url: media URL redirected more than 5 times');
      expect(server.hits).to.have.length(6);
    });

    it('refuses a body whose declared length is over the limit, without reading it', async () => {
      const error = await failure(fetchMedia(`${server.url}/declared-huge`, { ...OPEN, maxBytes: 4096 }));
      expect(error.code).to.equal('GW_BODY_TOO_LARGE');
      expect(error.status).to.equal(413);
      expect(error.message).to.include('4096-byte limit');
      expect(error.param).to.equal('messages[0].content[1].image_url');
    });

    it('stops reading a body without length once it passes the limit', async () => {
      const error = await failure(fetchMedia(`${server.url}/endless`, { ...OPEN, maxBytes: 300 * 1024 }));
      expect(error.code).to.equal('GW_BODY_TOO_LARGE');
    });

    it('times out on a server that never answers', async () => {
      const started = Date.now();
      const error = await failure(fetchMedia(`${server.url}/hang`, { ...OPEN, timeoutMs: 150 }));
      expect(error.code).to.equal('GW_INVALID_REQUEST');
      expect(error.message).to.include('timed out after 150ms');
      expect(Date.now() - started).to.be.below(2500);
    });

    it('reports a non-2xx answer with its status', async () => {
      const error = await failure(fetchMedia(`${server.url}/missing`, OPEN));
      expect(error.message).to.include('failed with HTTP 404');
    });

    it('stops when the client goes away', async () => {
      const controller = new AbortController();
      const pending = fetchMedia(`${server.url}/hang`, { ...OPEN, signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      const error = await failure(pending);
      expect(error.code).to.equal('GW_CLIENT_CLOSED');
    });
  });

  describe('SSRF guard', () => {
    const literals = [
      ['loopback', 'http://127.0.0.1/'],
      ['loopback, another 127/8 address', 'http://127.10.20.30/'],
      ['loopback, short form', 'http://127.1/'],
      ['loopback, decimal spelling', 'http://2130706433/'],
      ['loopback, hex spelling', 'http://0x7f000001/'],
      ['loopback, octal spelling', 'http://0177.0.0.1/'],
      ['loopback, octal dword', 'http://017700000001/'],
      ['IPv6 loopback', 'http://[::1]/'],
      ['unspecified', 'http://0.0.0.0/'],
      ['unspecified, short form', 'http://0/'],
      ['IPv6 unspecified', 'http://[::]/'],
      ['cloud metadata (link-local)', 'http://169.254.169.254/latest/meta-data/'],
      ['IPv6 link-local', 'http://[fe80::1]/'],
      ['RFC 1918 10/8', 'http://10.0.0.1/'],
      ['RFC 1918 172.16/12', 'http://172.16.0.1/'],
      ['RFC 1918 172.16/12 upper end', 'http://172.31.255.254/'],
      ['RFC 1918 192.168/16', 'http://192.168.1.1/'],
      ['carrier-grade NAT', 'http://100.64.0.1/'],
      ['unique local fc00::/7', 'http://[fc00::1]/'],
      ['unique local fd00::/8', 'http://[fd12:3456::1]/'],
      ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/'],
      ['IPv4-mapped IPv6 loopback, hex', 'http://[::ffff:7f00:1]/'],
      ['IPv4-compatible IPv6 loopback (URL parsing writes it [::7f00:1])', 'http://[::127.0.0.1]/'],
      ['IPv4-mapped IPv6 metadata', 'http://[::ffff:169.254.169.254]/'],
      ['broadcast', 'http://255.255.255.255/'],
    ] as const;
    for (const [name, url] of literals) {
      it(`refuses ${name}: ${url}`, async () => {
        const error = await failure(fetchMedia(url, { ...GUARDED, timeoutMs: 500 }));
        expect(error.code).to.equal('GW_INVALID_REQUEST');
        expect(error.status).to.equal(400);
        expect(error.message).to.match(/^messages\[0\]\.content\[1\]\.image_url: refused to fetch media from /);
        expect(error.param).to.equal('messages[0].content[1].image_url');
      });
    }

    it('refuses the loopback server itself, which it would otherwise reach', async () => {
      const error = await failure(fetchMedia(`${server.url}/image.png`, GUARDED));
      expect(error.message).to.include('refused');
      expect(server.hits).to.deep.equal([]);
    });

    it('refuses a DNS name that resolves to loopback, on the address it would connect to', async () => {
      const port = new URL(server.url).port;
      const error = await failure(fetchMedia(`http://localhost:${port}/image.png`, GUARDED));
      expect(error.code).to.equal('GW_INVALID_REQUEST');
      expect(error.message).to.match(/refused to fetch media from localhost: (127\.0\.0\.1|::1) is a loopback/);
      expect(server.hits).to.deep.equal([]);
    });

    it('refuses a redirect to a loopback address', async () => {
      nock('http://media.example.test').get('/cat.png').reply(302, '', { location: `${server.url}/image.png` });
      const error = await failure(fetchMedia('http://media.example.test/cat.png', GUARDED));
      expect(error.message).to.include('refused to fetch media from 127.0.0.1');
      expect(server.hits).to.deep.equal([]);
    });

    it('refuses a redirect to a name that resolves to loopback', async () => {
      const port = new URL(server.url).port;
      nock('http://media.example.test').get('/cat.png').reply(307, '', { location: `http://localhost:${port}/image.png` });
      const error = await failure(fetchMedia('http://media.example.test/cat.png', GUARDED));
      expect(error.message).to.include('refused to fetch media from localhost');
      expect(server.hits).to.deep.equal([]);
    });

    it('refuses a redirect to the metadata address', async () => {
      nock('http://media.example.test').get('/cat.png').reply(301, '', { location: 'http://169.254.169.254/latest/meta-data/iam' });
      const error = await failure(fetchMedia('http://media.example.test/cat.png', GUARDED));
      expect(error.message).to.include('refused to fetch media from 169.254.169.254');
    });

    it('fetches from a public host', async () => {
      nock('https://media.example.test').get('/cat.png').reply(200, PNG, { 'content-type': 'image/png' });
      const media = await fetchMedia('https://media.example.test/cat.png', GUARDED);
      expect(media.data.equals(PNG)).to.equal(true);
    });

    it('refuses schemes other than http and https', async () => {
      for (const url of ['file:///etc/passwd', 'ftp://example.test/a.png', 'gopher://example.test/']) {
        const error = await failure(fetchMedia(url, GUARDED));
        expect(error.code).to.equal('GW_INVALID_REQUEST');
        expect(error.message).to.include('must be http or https');
      }
    });

    it('refuses a redirect to another scheme', async () => {
      nock('http://media.example.test').get('/cat.png').reply(302, '', { location: 'file:///etc/passwd' });
      const error = await failure(fetchMedia('http://media.example.test/cat.png', GUARDED));
      expect(error.message).to.include('must be http or https');
    });

    it('never puts the path or query of the URL in an error message', async () => {
      nock('https://media.example.test').get('/private/cat.png').query(true).reply(403, 'denied');
      const error = await failure(fetchMedia('https://media.example.test/private/cat.png?X-Amz-Signature=secret-token-value', GUARDED));
      expect(error.message).to.include('media.example.test');
      expect(error.message).not.to.include('secret-token-value');
      expect(error.message).not.to.include('/private');
    });
  });
});
