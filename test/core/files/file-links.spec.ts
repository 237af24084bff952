import { expect } from 'chai';
import { createFileLinks, requestBaseUrl } from '../../../core/files/file-links';
import { createMemoryStore } from '../../../core/store/memory-store';
import { createCorruptStore } from '../../helpers/corrupt-store';
import { TINY_PNG } from '../../helpers/multipart';
import { startGateway, type RunningGateway } from '../../helpers/start-gateway';

describe('served files', () => {
  describe('requestBaseUrl', () => {
    it('prefers the configured public base URL', () => {
      expect(requestBaseUrl({ host: 'internal:8080' }, 'https://gw.example.com/')).to.equal('https://gw.example.com');
    });
    it('otherwise uses the Host header and x-forwarded-proto', () => {
      expect(requestBaseUrl({ host: '10.0.0.1:8080' })).to.equal('http://10.0.0.1:8080');
      expect(requestBaseUrl({ host: 'gw.example.com', 'x-forwarded-proto': 'https, http' })).to.equal('https://gw.example.com');
      expect(requestBaseUrl({ host: 'gw.example.com', 'x-forwarded-proto': 'javascript' })).to.equal('http://gw.example.com');
    });
  });

  describe('GET /files/{id} on a gateway', () => {
    let gw: RunningGateway;
    before(async () => {
      gw = await startGateway({});
    });
    after(() => gw.close());

    it('serves published bytes without a license, with their type and length', async () => {
      const links = createFileLinks({ store: gw.gateway.runtime.store });
      const url = await links.publish({ headers: { host: new URL(gw.url).host } }, { data: TINY_PNG, mediaType: 'image/png' });
      expect(url).to.match(new RegExp(`^${gw.url}/files/file_[\\w-]{32}\\.png$`));
      const res = await fetch(url);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/png');
      expect(res.headers.get('content-length')).to.equal(String(TINY_PNG.length));
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('cache-control')).to.match(/^private, max-age=(3600|3599)$/);
      expect(Buffer.from(await res.arrayBuffer()).equals(TINY_PNG)).to.equal(true);
      const head = await fetch(url, { method: 'HEAD' });
      expect(head.status).to.equal(200);
      expect(head.headers.get('content-length')).to.equal(String(TINY_PNG.length));
    });

    it('gives every publication its own unguessable id', async () => {
      const links = createFileLinks({ store: gw.gateway.runtime.store });
      const a = await links.publish({ headers: { host: 'h' } }, { data: TINY_PNG, mediaType: 'image/png' });
      const b = await links.publish({ headers: { host: 'h' } }, { data: TINY_PNG, mediaType: 'image/png' });
      expect(a).not.to.equal(b);
    });

    it('answers 404 in the OpenAI shape for an unknown or malformed id', async () => {
      for (const id of ['file_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.png', '..%2f..%2fetc', 'x']) {
        const res = await fetch(`${gw.url}/files/${id}`);
        expect(res.status).to.equal(404);
        const body = (await res.json()) as { error: { message: string } };
        expect(body.error.message).to.match(/expired/);
      }
    });

    it('stops serving a file after its expiry', async () => {
      let clock = Date.now();
      const store = createMemoryStore(() => clock);
      const links = createFileLinks({ store, publicBaseUrl: 'https://gw.example', ttlMs: 1000 });
      const url = await links.publish({ headers: {} }, { data: TINY_PNG, mediaType: 'image/png' });
      const id = url.slice('https://gw.example/files/'.length);
      expect(await store.get('served-files', id)).not.to.equal(undefined);
      clock += 1001;
      expect(await store.get('served-files', id)).to.equal(undefined);
    });

    it('serves an unexpected media type as octet-stream, never as something a browser renders', async () => {
      const links = createFileLinks({ store: gw.gateway.runtime.store });
      const url = await links.publish({ headers: { host: new URL(gw.url).host } }, { data: Buffer.from('<script>x</script>'), mediaType: 'text/html' });
      const res = await fetch(url);
      expect(res.headers.get('content-type')).to.equal('application/octet-stream');
      expect(res.headers.get('content-security-policy')).to.include("default-src 'none'");
    });
  });

  it('answers 404, not a 500, for a file whose entry cannot be read back (a damaged store)', async () => {
    const id = 'file_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.png';
    const damaged = await createCorruptStore([['served-files', id]], [], { open: false });
    const gw = await startGateway({}, { store: { driver: 'sqlite', path: damaged.file } });
    try {
      const res = await fetch(`${gw.url}/files/${id}`);
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { error: { message: string } }).error.message).to.match(/expired/);
    } finally {
      await gw.close();
      await damaged.remove();
    }
  });
});
