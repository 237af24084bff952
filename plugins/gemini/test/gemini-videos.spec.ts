import { expect } from 'chai';
import nock from 'nock';
import { createCorruptStore } from '../../../test/helpers/corrupt-store';
import { fixtureJson } from '../../../test/helpers/fixtures';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { decodeVeoVideoId, encodeVeoVideoId } from '../src/veo-video-id';
import { KEY_A, KEY_B, postJson, UPSTREAM } from './helpers';

const OPERATION = 'models/veo-3.0-generate-001/operations/8k2qz3p9xw1m';
const STORAGE = 'https://storage.example.test';
const VIDEO = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(1000, 3)]);
const AUTH = { authorization: `Bearer ${TEST_LICENSE}` };

describe('gemini plugin: videos (Veo)', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }, { apiKey: KEY_B }] } });
  });
  after(() => gw.close());
  afterEach(() => nock.cleanAll());

  /** Starts a video (fixture operation-created) and answers its id and the key that started it. */
  async function create(body: Record<string, unknown>): Promise<{ id: string; key: string; sent: unknown; video: Record<string, unknown> }> {
    let sent: unknown;
    let key = '';
    const model = typeof body.model === 'string' ? body.model : 'veo-3.0-generate-001';
    nock(UPSTREAM)
      .post(`/v1beta/models/${model}:predictLongRunning`)
      .reply(function (_uri, requestBody) {
        sent = requestBody;
        key = String(this.req.headers['x-goog-api-key']);
        const created = fixtureJson<{ name: string }>('gemini-veo/operation-created.json');
        return [200, { ...created, name: created.name.replace('veo-3.0-generate-001', model) }];
      });
    const res = await postJson(`${gw.url}/gemini/v1/videos`, body);
    expect(res.status).to.equal(200);
    const video = (await res.json()) as Record<string, unknown>;
    return { id: String(video.id), key, sent, video };
  }

  it('a request naming no duration or size answers what Veo makes then (8 s, 1280x720), not nulls', async () => {
    const { sent, video } = await create({ prompt: 'A calico cat' });
    expect(sent).not.to.have.nested.property('parameters.durationSeconds');
    expect(video).to.include({ seconds: '8', size: '1280x720' });
  });

  for (const [asked, made, parameters] of [
    ['1024x1792', '720x1280', { aspectRatio: '9:16', resolution: '720p' }],
    ['100x100', '1280x720', { aspectRatio: '16:9', resolution: '720p' }],
    ['1080x1920', '1080x1920', { aspectRatio: '9:16', resolution: '1080p' }],
  ] as const) {
    it(`a size Veo does not make (${asked}) answers the frame it does make (${made})`, async () => {
      const { sent, video } = await create({ prompt: 'A calico cat', size: asked });
      expect(sent).to.have.deep.nested.property('parameters', parameters);
      expect(video).to.include({ size: made });
    });
  }

  it('Veo 2, which makes 720p only and takes no resolution, is asked without one and answers the 720p frame', async () => {
    const { sent, video } = await create({ model: 'veo-2.0-generate-001', prompt: 'A calico cat', size: '1920x1080' });
    expect(sent).to.have.deep.nested.property('parameters', { aspectRatio: '16:9' });
    expect(video).to.include({ size: '1280x720' });
  });

  it('create maps the request (fixture request-predict-long-running.json shape) and answers a queued video', async () => {
    const { id, sent, video } = await create({ model: 'veo-3.0-generate-001', prompt: 'A calico cat', size: '1920x1080', seconds: '8', negative_prompt: 'cartoon' });
    expect(sent).to.deep.equal({ instances: [{ prompt: 'A calico cat' }], parameters: { aspectRatio: '16:9', resolution: '1080p', durationSeconds: 8, negativePrompt: 'cartoon' } });
    expect(video).to.include({ object: 'video', status: 'queued', model: 'veo-3.0-generate-001', prompt: 'A calico cat', seconds: '8', size: '1920x1080', progress: 0 });
    expect(decodeVeoVideoId(id).operation).to.equal(OPERATION);
  });

  it('a create answered with an operation name no video id can carry is a 502, not a video no call could reach', async () => {
    for (const name of ['', 'operations/abc', 'models/veo-3.0-generate-001/operations/../x']) {
      nock(UPSTREAM).post(/predictLongRunning/).reply(200, { name });
      const res = await postJson(`${gw.url}/gemini/v1/videos`, { prompt: 'A calico cat' });
      expect(res.status, name).to.equal(502);
    }
  });

  it('an input_reference image becomes instances[0].image (fixture request-image-to-video.json)', async () => {
    const fixture = fixtureJson<{ instances: Array<{ prompt: string; image: { bytesBase64Encoded: string; mimeType: string } }> }>('gemini-veo/request-image-to-video.json');
    const image = fixture.instances[0].image;
    const { sent } = await create({ prompt: fixture.instances[0].prompt, input_reference: `data:${image.mimeType};base64,${image.bytesBase64Encoded}`, size: '1280x720' });
    expect(sent).to.deep.equal({ ...fixture, parameters: { aspectRatio: '16:9', resolution: '720p' } });
  });

  it('an input_reference that is not an image is a 415, before any upstream call', async () => {
    for (const reference of [`data:text/html;base64,${Buffer.from('<b>hi</b>').toString('base64')}`, `data:video/mp4;base64,${VIDEO.toString('base64')}`]) {
      const res = await postJson(`${gw.url}/gemini/v1/videos`, { prompt: 'A calico cat', input_reference: reference });
      expect(res.status, reference.slice(0, 20)).to.equal(415);
      expect(((await res.json()) as { error: { param: string } }).error.param).to.equal('input_reference');
    }
  });

  it('get polls the operation with the key that created it: pending, done, error, filtered; detail=true adds the record', async () => {
    const { id, key } = await create({ prompt: 'x', seconds: '8', size: '1280x720' });
    const poll = async (fixture: string, detail = false): Promise<Record<string, unknown>> => {
      let usedKey = '';
      nock(UPSTREAM)
        .get(`/v1beta/${OPERATION}`)
        .reply(function () {
          usedKey = String(this.req.headers['x-goog-api-key']);
          return [200, fixtureJson(fixture)];
        });
      const res = await fetch(`${gw.url}/gemini/v1/videos/${id}${detail ? '?detail=true' : ''}`, { headers: AUTH });
      expect(res.status).to.equal(200);
      expect(usedKey).to.equal(key);
      return (await res.json()) as Record<string, unknown>;
    };
    expect(await poll('gemini-veo/operation-pending.json')).to.include({ id, status: 'in_progress', progress: 0 });
    const done = await poll('gemini-veo/operation-done.json', true);
    // What the video was asked for, which the operation does not repeat, comes back on every retrieve.
    expect(done).to.include({ status: 'completed', progress: 100, error: null, prompt: 'x', seconds: '8', size: '1280x720' });
    expect(done.detail).to.deep.equal(fixtureJson('gemini-veo/operation-done.json'));
    expect((await poll('gemini-veo/operation-error.json')).error).to.deep.equal({ code: '13', message: 'Video generation failed due to an internal error. Please try again.' });
    const filtered = await poll('gemini-veo/operation-filtered.json');
    expect(filtered.status).to.equal('failed');
    expect(filtered.error).to.have.property('code', 'content_filtered');
    expect(filtered).to.not.have.property('detail');
  });

  it('a done video keeps the completed_at of the retrieve that first saw it done (Veo gives none)', async () => {
    const { id } = await create({ prompt: 'x' });
    const retrieve = async (): Promise<Record<string, unknown>> => {
      nock(UPSTREAM).get(`/v1beta/${OPERATION}`).reply(200, fixtureJson('gemini-veo/operation-done.json'));
      return (await (await fetch(`${gw.url}/gemini/v1/videos/${id}`, { headers: AUTH })).json()) as Record<string, unknown>;
    };
    const first = await retrieve();
    expect(first.completed_at).to.be.a('number');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await retrieve()).completed_at).to.equal(first.completed_at);
  });

  it('an operation that quotes an API key answers it masked, in the error and in detail=true', async () => {
    const { id } = await create({ prompt: 'x' });
    const foreign = `AIza${'F'.repeat(35)}`;
    const operation = { name: OPERATION, done: true, error: { code: 3, message: `API key not valid: ${KEY_A}; also ${foreign}` } };
    for (const query of ['', '?detail=true']) {
      nock(UPSTREAM).get(`/v1beta/${OPERATION}`).reply(200, operation);
      const res = await fetch(`${gw.url}/gemini/v1/videos/${id}${query}`, { headers: AUTH });
      expect(res.status, query).to.equal(200);
      const text = await res.text();
      expect(text, query).to.not.contain(KEY_A).and.not.contain(foreign);
      const video = JSON.parse(text) as { error: { message: string }; detail?: { error: { message: string } } };
      // `...0001` when another key made the call; the call's own key is masked in the upstream's bytes (`****0001`).
      expect(video.error.message, query).to.match(new RegExp(`(?:\\.\\.\\.|\\*{4,})${KEY_A.slice(-4)}`));
      if (query) expect(video.detail?.error.message).to.equal(video.error.message);
    }
  });

  it('content follows the upstream redirect to storage without the key, passing the range through', async () => {
    const { id, key } = await create({ prompt: 'x' });
    nock(UPSTREAM).get(`/v1beta/${OPERATION}`).reply(200, fixtureJson('gemini-veo/operation-done.json'));
    // The fixture's uri is on generativelanguage.googleapis.com: the test upstream answers for that host here.
    let downloadKey = '';
    nock('https://generativelanguage.googleapis.com')
      .get('/v1beta/files/3k9xq2m7pz4w:download')
      .query({ alt: 'media' })
      .reply(function () {
        downloadKey = String(this.req.headers['x-goog-api-key'] ?? '');
        return [302, '', { location: `${STORAGE}/v/abc.mp4?sig=1` }];
      });
    let storageHeaders: Record<string, unknown> = {};
    nock(STORAGE)
      .get('/v/abc.mp4')
      .query({ sig: '1' })
      .reply(function () {
        storageHeaders = this.req.headers;
        return [206, VIDEO.subarray(0, 10), { 'content-type': 'video/mp4', 'content-range': `bytes 0-9/${VIDEO.length}`, 'content-length': '10' }];
      });
    const res = await fetch(`${gw.url}/gemini/v1/videos/${id}/content`, { headers: { ...AUTH, range: 'bytes=0-9' } });
    // The fixture's download host is not this platform's baseUrl: it gets no key either.
    expect(downloadKey).to.equal('');
    expect(res.status).to.equal(206);
    expect(res.headers.get('content-range')).to.equal(`bytes 0-9/${VIDEO.length}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(VIDEO.subarray(0, 10))).to.equal(true);
    expect(storageHeaders).to.not.have.property('x-goog-api-key');
    expect(storageHeaders.range).to.equal('bytes=0-9');
    expect(key).to.not.equal('');
  });

  it('content on the upstream itself carries the key; a redirect off it does not', async () => {
    const { id, key } = await create({ prompt: 'x' });
    nock(UPSTREAM)
      .get(`/v1beta/${OPERATION}`)
      .reply(200, { name: OPERATION, done: true, response: { generateVideoResponse: { generatedSamples: [{ video: { uri: `${UPSTREAM}/v1beta/files/f1:download?alt=media` } }] } } });
    let downloadKey = '';
    nock(UPSTREAM)
      .get('/v1beta/files/f1:download')
      .query({ alt: 'media' })
      .reply(function () {
        downloadKey = String(this.req.headers['x-goog-api-key']);
        return [302, '', { location: `${STORAGE}/v/f1.mp4` }];
      });
    let storageKey: unknown;
    nock(STORAGE)
      .get('/v/f1.mp4')
      .reply(function () {
        storageKey = this.req.headers['x-goog-api-key'];
        return [200, VIDEO, { 'content-type': 'video/mp4', 'content-length': String(VIDEO.length) }];
      });
    const res = await fetch(`${gw.url}/gemini/v1/videos/${id}/content`, { headers: AUTH });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-length')).to.equal(String(VIDEO.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(VIDEO)).to.equal(true);
    expect(downloadKey).to.equal(key);
    expect(storageKey).to.equal(undefined);
  });

  it('a 416 on the upstream itself is passed through with its content-range, as one from storage is', async () => {
    const { id } = await create({ prompt: 'x' });
    nock(UPSTREAM)
      .get(`/v1beta/${OPERATION}`)
      .reply(200, { name: OPERATION, done: true, response: { generateVideoResponse: { generatedSamples: [{ video: { uri: `${UPSTREAM}/v1beta/files/f1:download?alt=media` } }] } } });
    nock(UPSTREAM).get('/v1beta/files/f1:download').query({ alt: 'media' }).matchHeader('range', 'bytes=5000-').reply(416, '', { 'content-range': `bytes */${VIDEO.length}`, 'content-length': '0' });
    const res = await fetch(`${gw.url}/gemini/v1/videos/${id}/content`, { headers: { ...AUTH, range: 'bytes=5000-' } });
    expect(res.status).to.equal(416);
    expect(res.headers.get('content-range')).to.equal(`bytes */${VIDEO.length}`);
    expect(await res.text()).to.equal('');
  });

  it('content of a video whose operation names no usable URL is a 502, not a 500', async () => {
    const { id } = await create({ prompt: 'x' });
    nock(UPSTREAM)
      .get(`/v1beta/${OPERATION}`)
      .reply(200, { name: OPERATION, done: true, response: { generateVideoResponse: { generatedSamples: [{ video: { uri: 'files/f1:download' } }] } } });
    const res = await fetch(`${gw.url}/gemini/v1/videos/${id}/content`, { headers: AUTH });
    expect(res.status).to.equal(502);
    expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('gw_upstream_bad_response');
  });

  it('content of an unfinished video is a 400; remix a 400; an unknown id a 404', async () => {
    const { id } = await create({ prompt: 'x' });
    nock(UPSTREAM).get(`/v1beta/${OPERATION}`).reply(200, fixtureJson('gemini-veo/operation-pending.json'));
    const pending = await fetch(`${gw.url}/gemini/v1/videos/${id}/content`, { headers: AUTH });
    expect(pending.status).to.equal(400);
    expect(((await pending.json()) as { error: { message: string } }).error.message).to.contain('not completed yet');
    const remix = await postJson(`${gw.url}/gemini/v1/videos/${id}/remix`, { prompt: 'y' });
    expect(remix.status).to.equal(400);
    expect(((await remix.json()) as { error: { message: string } }).error.message).to.contain('cannot remix');
    const unknown = await fetch(`${gw.url}/gemini/v1/videos/video_nope`, { headers: AUTH });
    expect(unknown.status).to.equal(404);
  });

  it('video ids round-trip and are URL-safe', () => {
    const ref = { operation: OPERATION, credential: 'abc123', createdAt: 1700000000 };
    const id = encodeVeoVideoId(ref);
    expect(id).to.match(/^video_[A-Za-z0-9_-]+$/);
    expect(decodeVeoVideoId(id)).to.deep.equal(ref);
    expect(() => decodeVeoVideoId(`video_${Buffer.from('1..models/x/files/y').toString('base64url')}`)).to.throw(/not a video id/);
    // A `..` segment would be a step up the upstream's path (to `/v1beta/operations/…`) with the operator's key.
    for (const operation of ['models/../operations/abc', 'models/gemini-2.5-pro/operations/..', 'models/./operations/x']) {
      expect(() => decodeVeoVideoId(`video_${Buffer.from(`1.ab12.${operation}`).toString('base64url')}`), operation).to.throw(/not a video id/);
    }
  });

  it('a video whose stored record cannot be read back (a damaged store) is a 404, not a 500: it names no owner, so no license may read it', async () => {
    const damaged = await createCorruptStore([['veo-videos:gemini', OPERATION]], [], { open: false });
    const own = await startGateway({ gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }] } }, { store: { driver: 'sqlite', path: damaged.file } });
    try {
      const id = encodeVeoVideoId({ operation: OPERATION, credential: '', createdAt: 1700000000 });
      const res = await fetch(`${own.url}/gemini/v1/videos/${id}`, { headers: AUTH });
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { error: { message: string } }).error.message).to.equal(`no video "${id}" on platform "gemini"`);
    } finally {
      await own.close();
      await damaged.remove();
    }
  });
});
