import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import nock from 'nock';
import { fixtureBytes, fixtureJson } from '../../../test/helpers/fixtures';
import { replyCapturing, TINY_PNG } from '../../../test/helpers/multipart';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

const UPSTREAM = 'http://openai-videos.upstream.test';
const UPSTREAM_KEY = 'sk-upstream-videos-key-000000000001';
const AUTH = { authorization: `Bearer ${TEST_LICENSE}` };
const VIDEO_ID = 'video_68f082321ed08193a4eaf01376fa10bc0284bd663de64dc5';

function platform(baseUrl: string) {
  return { openai: { plugin: 'openai', baseUrl, credentials: [{ apiKey: UPSTREAM_KEY }] } };
}

/** A request whose path goes out byte for byte as given. */
function rawRequest(url: string, method: string, body?: string): Promise<{ status: number; body: string }> {
  const { host, pathname, search } = new URL(url.replace(/%2e/gi, 'DOT'));
  const path = (pathname + search).replace(/DOT/g, '%2E');
  return new Promise((resolve, reject) => {
    const req = http.request({ host: host.split(':')[0], port: Number(host.split(':')[1]), path, method, headers: { ...AUTH, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('openai plugin: videos (nock replays)', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway(platform(UPSTREAM));
  });
  after(() => gw.close());

  const postJson = (path: string, body: unknown) =>
    fetch(`${gw.url}/openai${path}`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('creates a video from the fixture JSON body and answers the video object', async () => {
    const request = fixtureJson('openai-videos/request-create.json');
    let seen: unknown;
    nock(UPSTREAM)
      .post('/v1/videos')
      .matchHeader('authorization', `Bearer ${UPSTREAM_KEY}`)
      .reply(200, (_uri, body) => {
        seen = body;
        return fixtureBytes('openai-videos/video-object-queued.json');
      });
    const res = await postJson('/v1/videos', request);
    expect(res.status).to.equal(200);
    expect(seen).to.deep.equal(request);
    expect(await res.json()).to.deep.equal(fixtureJson('openai-videos/video-object-queued.json'));
  });

  it('sends seconds as the string the Videos API wants', async () => {
    let seen: Record<string, unknown> = {};
    nock(UPSTREAM).post('/v1/videos').reply(200, (_uri, body) => {
      seen = body as Record<string, unknown>;
      return fixtureJson('openai-videos/video-object-queued.json');
    });
    await postJson('/v1/videos', { model: 'sora-2', prompt: 'x', seconds: 8 });
    expect(seen.seconds).to.equal('8');
  });

  it('re-encodes a multipart creation with an input_reference[] file as the API\'s input_reference', async () => {
    const upstream = replyCapturing(nock(UPSTREAM).post('/v1/videos'), fixtureJson('openai-videos/video-object-queued.json'));
    const form = new FormData();
    form.append('model', 'sora-2');
    form.append('prompt', 'A calico cat');
    form.append('size', '1280x720');
    form.append('seconds', '8');
    form.append('input_reference[]', new Blob([TINY_PNG], { type: 'image/png' }), 'first_frame.png');
    const res = await fetch(`${gw.url}/openai/v1/videos`, { method: 'POST', headers: AUTH, body: form });
    expect(res.status).to.equal(200);
    const parsed = await upstream.sent();
    expect(parsed.fields).to.deep.equal([['model', 'sora-2'], ['prompt', 'A calico cat'], ['size', '1280x720'], ['seconds', '8']]);
    expect(parsed.files).to.have.length(1);
    expect(parsed.files[0]).to.deep.include({ field: 'input_reference', filename: 'first_frame.png', type: 'image/png' });
    expect(parsed.files[0].data.equals(TINY_PNG)).to.equal(true);
  });

  it('sends a URL or base64 reference as the JSON input_reference object', async () => {
    const seen: unknown[] = [];
    nock(UPSTREAM).post('/v1/videos').times(2).reply(200, (_uri, body) => {
      seen.push((body as Record<string, unknown>).input_reference);
      return fixtureJson('openai-videos/video-object-queued.json');
    });
    await postJson('/v1/videos', { prompt: 'x', input_reference: 'https://example.com/frame.png' });
    await postJson('/v1/videos', { prompt: 'x', input_reference: [TINY_PNG.toString('base64')] });
    expect(seen).to.deep.equal([{ image_url: 'https://example.com/frame.png' }, { image_url: `data:image/png;base64,${TINY_PNG.toString('base64')}` }]);
  });

  it('answers 400 for two reference images (Sora takes one), without calling the upstream', async () => {
    const upstream = nock(UPSTREAM).post('/v1/videos').reply(200, {});
    const res = await postJson('/v1/videos', { prompt: 'x', input_reference: ['https://e.com/a.png', 'https://e.com/b.png'] });
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).to.equal('input_reference');
    expect(upstream.isDone()).to.equal(false);
  });

  it('answers 400 naming a file field a video does not take', async () => {
    const form = new FormData();
    form.append('prompt', 'x');
    form.append('image', new Blob([TINY_PNG], { type: 'image/png' }), 'a.png');
    const res = await fetch(`${gw.url}/openai/v1/videos`, { method: 'POST', headers: AUTH, body: form });
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).to.equal('image');
  });

  it('retrieves a video; detail=true adds the upstream\'s own record and is not forwarded', async () => {
    const record = { ...fixtureJson('openai-videos/video-object-completed.json'), quality: 'standard' };
    nock(UPSTREAM).get(`/v1/videos/${VIDEO_ID}`).times(2).reply(200, record);
    const plain = (await (await fetch(`${gw.url}/openai/v1/videos/${VIDEO_ID}`, { headers: AUTH })).json()) as Record<string, unknown>;
    expect(plain).not.to.have.property('detail');
    expect(plain).to.deep.include({ id: VIDEO_ID, object: 'video', status: 'completed', progress: 100 });
    const detailed = (await (await fetch(`${gw.url}/openai/v1/videos/${VIDEO_ID}?detail=true`, { headers: AUTH })).json()) as Record<string, unknown>;
    expect(detailed.detail).to.deep.equal(record);
  });

  it('reports a failed video with its error', async () => {
    nock(UPSTREAM).get(`/v1/videos/${VIDEO_ID}`).reply(200, fixtureJson('openai-videos/video-object-failed.json'));
    const body = (await (await fetch(`${gw.url}/openai/v1/videos/${VIDEO_ID}`, { headers: AUTH })).json()) as Record<string, unknown>;
    expect(body).to.deep.equal(fixtureJson('openai-videos/video-object-failed.json'));
  });

  it('masks the key where a 200 video record quotes it: in its error, in detail=true, on create as on retrieve', async () => {
    const failed = fixtureJson<Record<string, unknown>>('openai-videos/video-object-failed.json');
    const record = { ...failed, error: { code: 'invalid_api_key', message: `Incorrect API key provided: ${UPSTREAM_KEY} for project` }, note: `key ${UPSTREAM_KEY}` };
    nock(UPSTREAM).get(`/v1/videos/${VIDEO_ID}`).reply(200, record).post('/v1/videos').reply(200, { ...record, id: VIDEO_ID });
    const text = await (await fetch(`${gw.url}/openai/v1/videos/${VIDEO_ID}?detail=true`, { headers: AUTH })).text();
    const created = await (await postJson('/v1/videos', { model: 'sora-2', prompt: 'x' })).text();
    for (const body of [text, created]) {
      expect(body).to.contain('Incorrect API key provided: sk-').and.not.contain(UPSTREAM_KEY);
    }
    expect(text).to.contain('"note":"key sk-');
  });

  it('maps an unknown video to 404 with the upstream message', async () => {
    nock(UPSTREAM).get('/v1/videos/video_does_not_exist').reply(404, fixtureJson('openai-videos/error-404.json'));
    const res = await fetch(`${gw.url}/openai/v1/videos/video_does_not_exist`, { headers: AUTH });
    expect(res.status).to.equal(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.equal("Video with id 'video_does_not_exist' not found.");
  });

  it('answers 404 for a "." or ".." video id without calling the upstream, whose URL would read it as a path step', async () => {
    // What the upstream would be asked, path steps resolved: none of these may be called.
    const parent = nock(UPSTREAM).get(/^\/v1\/(?:content|remix)?(?:\?.*)?$/).reply(200, {}).post(/^\/v1\/remix/).reply(200, {});
    for (const [method, path] of [['GET', '%2E%2E?detail=true'], ['GET', '%2e%2E/content'], ['GET', '%2E/content'], ['POST', '%2E%2E/remix']]) {
      // node:http sends the path as written; fetch would resolve the encoded dots before sending.
      const res = await rawRequest(`${gw.url}/openai/v1/videos/${path}`, method, method === 'POST' ? '{"prompt":"x"}' : undefined);
      expect(res.status, path).to.equal(404);
      expect((JSON.parse(res.body) as { error: { message: string } }).error.message, path).to.match(/^no video "\.\.?"/);
    }
    expect(parent.pendingMocks()).to.have.length(2);
    nock.cleanAll();
  });

  it('remixes a video with the new prompt', async () => {
    let seen: unknown;
    nock(UPSTREAM).post(`/v1/videos/${VIDEO_ID}/remix`).reply(200, (_uri, body) => {
      seen = body;
      return fixtureJson('openai-videos/video-object-remix-queued.json');
    });
    const res = await postJson(`/v1/videos/${VIDEO_ID}/remix`, fixtureJson('openai-videos/request-remix.json'));
    expect(seen).to.deep.equal(fixtureJson('openai-videos/request-remix.json'));
    expect(await res.json()).to.deep.equal(fixtureJson('openai-videos/video-object-remix-queued.json'));
  });

  it('refuses reference images on a remix', async () => {
    const res = await postJson(`/v1/videos/${VIDEO_ID}/remix`, { prompt: 'x', input_reference: 'https://e.com/a.png' });
    expect(res.status).to.equal(400);
  });

  it('passes a range request through: 206 with content-range and length', async () => {
    const bytes = Buffer.alloc(1000, 7);
    nock(UPSTREAM)
      .get(`/v1/videos/${VIDEO_ID}/content`)
      .matchHeader('range', 'bytes=100-199')
      .matchHeader('authorization', `Bearer ${UPSTREAM_KEY}`)
      .reply(206, bytes.subarray(100, 200), { 'content-type': 'video/mp4', 'content-length': '100', 'content-range': 'bytes 100-199/1000', 'accept-ranges': 'bytes', 'x-internal': 'dropped' });
    const res = await fetch(`${gw.url}/openai/v1/videos/${VIDEO_ID}/content`, { headers: { ...AUTH, range: 'bytes=100-199' } });
    expect(res.status).to.equal(206);
    expect(res.headers.get('content-type')).to.equal('video/mp4');
    expect(res.headers.get('content-length')).to.equal('100');
    expect(res.headers.get('content-range')).to.equal('bytes 100-199/1000');
    expect(res.headers.get('accept-ranges')).to.equal('bytes');
    expect(res.headers.get('x-internal')).to.equal(null);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(100, 200))).to.equal(true);
  });

  it('passes a 416 through with its content-range, from the upstream or from storage it redirects to', async () => {
    const unsatisfiable = { 'content-range': 'bytes */1000', 'content-length': '0' };
    nock(UPSTREAM).get(`/v1/videos/${VIDEO_ID}/content`).matchHeader('range', 'bytes=5000-').reply(416, '', unsatisfiable);
    nock(UPSTREAM).get(`/v1/videos/${VIDEO_ID}/content`).reply(302, '', { location: 'http://storage.upstream.test/v/1.mp4' });
    nock('http://storage.upstream.test').get('/v/1.mp4').matchHeader('range', 'bytes=5000-').reply(416, '', unsatisfiable);
    for (const hop of ['upstream', 'storage']) {
      const res = await fetch(`${gw.url}/openai/v1/videos/${VIDEO_ID}/content`, { headers: { ...AUTH, range: 'bytes=5000-' } });
      expect(res.status, hop).to.equal(416);
      expect(res.headers.get('content-range'), hop).to.equal('bytes */1000');
      expect(await res.text(), hop).to.equal('');
    }
  });

  it('forwards the variant query', async () => {
    nock(UPSTREAM).get(`/v1/videos/${VIDEO_ID}/content`).query({ variant: 'thumbnail' }).reply(200, Buffer.from('RIFFxxxxWEBP'), { 'content-type': 'image/webp' });
    const res = await fetch(`${gw.url}/openai/v1/videos/${VIDEO_ID}/content?variant=thumbnail`, { headers: AUTH });
    expect(res.headers.get('content-type')).to.equal('image/webp');
  });

  it('follows a redirect to storage without sending the API key there', async () => {
    nock(UPSTREAM).get(`/v1/videos/${VIDEO_ID}/content`).reply(302, '', { location: 'http://storage.upstream.test/v/1.mp4?sig=abc' });
    const storage = nock('http://storage.upstream.test', { badheaders: ['authorization'] })
      .get('/v/1.mp4')
      .query({ sig: 'abc' })
      .reply(200, Buffer.from('mp4 bytes'), { 'content-type': 'video/mp4', 'content-length': '9' });
    const res = await fetch(`${gw.url}/openai/v1/videos/${VIDEO_ID}/content`, { headers: AUTH });
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal('mp4 bytes');
    expect(storage.isDone()).to.equal(true);
  });

  it('answers a not-ready video\'s content with the upstream error', async () => {
    nock(UPSTREAM).get(`/v1/videos/${VIDEO_ID}/content`).reply(404, { error: { message: 'Video is not ready yet.', type: 'invalid_request_error', param: null, code: null } });
    const res = await fetch(`${gw.url}/openai/v1/videos/${VIDEO_ID}/content`, { headers: AUTH });
    expect(res.status).to.equal(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.equal('Video is not ready yet.');
  });
});

describe('openai plugin: video content is streamed, not buffered', () => {
  let upstream: http.Server;
  let gw: RunningGateway;
  let release: () => void = () => undefined;
  const first = Buffer.alloc(64 * 1024, 1);
  const rest = Buffer.alloc(64 * 1024, 2);

  before(async () => {
    // An upstream that sends the first half, then waits until the test has seen it before sending the rest.
    upstream = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(first.length + rest.length) });
      res.write(first);
      new Promise<void>((resolve) => {
        release = resolve;
      }).then(() => res.end(rest));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    gw = await startGateway(platform(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`));
  });
  after(async () => {
    release();
    await gw.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('delivers the first bytes before the upstream has finished, with the upstream\'s length', async () => {
    const res = await fetch(`${gw.url}/openai/v1/videos/${VIDEO_ID}/content`, { headers: AUTH });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-length')).to.equal(String(first.length + rest.length));
    const reader = res.body!.getReader();
    let received = 0;
    let releasedByTimeout = false;
    const timeout = setTimeout(() => {
      releasedByTimeout = true;
      release();
    }, 3000);
    while (received < first.length) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value.length;
    }
    clearTimeout(timeout);
    // Had the gateway waited for the whole file, nothing would have arrived before the timeout released the rest.
    expect(releasedByTimeout).to.equal(false);
    expect(received).to.be.at.least(first.length);
    release();
    while (!(await reader.read()).done);
  });
});
