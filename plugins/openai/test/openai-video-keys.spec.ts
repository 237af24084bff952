import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import nock from 'nock';
import { fixtureJson } from '../../../test/helpers/fixtures';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

const UPSTREAM = 'http://openai-video-keys.upstream.test';
const AUTH = { authorization: `Bearer ${TEST_LICENSE}` };
const KEY_A = 'sk-proj-A-video-keys-000000000001';
const KEY_B = 'sk-proj-B-video-keys-000000000002';
/** A second key of project B, e.g. the one that replaced KEY_B. */
const KEY_B2 = 'sk-proj-B-video-keys-000000000003';
const PROJECT: Record<string, string> = { [KEY_A]: 'A', [KEY_B]: 'B', [KEY_B2]: 'B' };

function platforms(keys: string[]) {
  return { openai: { plugin: 'openai', baseUrl: UPSTREAM, credentials: keys.map((apiKey) => ({ apiKey })) } };
}

interface Seen {
  call: string;
  key: string;
  status: number;
}

/**
 * The Videos API as OpenAI scopes it: a video (and its remixes) belong to the project of the key that created it;
 * any other project's key gets the API's 404.
 */
function fakeVideosApi(): Seen[] {
  const seen: Seen[] = [];
  const owner = new Map<string, string>();
  let count = 0;
  const keyOf = (headers: Record<string, string | string[] | undefined>): string => String(headers.authorization).replace(/^Bearer /, '');
  const video = (id: string, status: string, extra: Record<string, unknown> = {}) => ({ ...fixtureJson<Record<string, unknown>>('openai-videos/video-object-queued.json'), id, status, ...extra });
  const notFound = (id: string) => ({ error: { message: `Video with id '${id}' not found.`, type: 'invalid_request_error', param: null, code: null } });
  const create = (key: string, call: string, extra: Record<string, unknown> = {}) => {
    const id = `video_${++count}`;
    owner.set(id, PROJECT[key]);
    seen.push({ call, key, status: 200 });
    return video(id, 'queued', extra);
  };
  nock(UPSTREAM)
    .persist()
    .post('/v1/videos')
    .reply(function () {
      return [200, create(keyOf(this.req.headers), 'create')];
    })
    .post(/^\/v1\/videos\/[^/]+\/remix$/)
    .reply(function (uri) {
      const key = keyOf(this.req.headers);
      const id = uri.split('/')[3];
      if (owner.get(id) !== PROJECT[key]) {
        seen.push({ call: `remix ${id}`, key, status: 404 });
        return [404, notFound(id)];
      }
      return [200, create(key, `remix ${id}`, { remixed_from_video_id: id })];
    })
    .get(/^\/v1\/videos\/[^/]+(\/content)?$/)
    .reply(function (uri) {
      const key = keyOf(this.req.headers);
      const [, , , id, content] = uri.split('/');
      const call = `${content ? 'content' : 'get'} ${id}`;
      const status = owner.get(id) === PROJECT[key] ? 200 : 404;
      seen.push({ call, key, status });
      if (status === 404) return [404, notFound(id)];
      return content ? [200, Buffer.from(`mp4 of ${id}`), { 'content-type': 'video/mp4' }] : [200, video(id, 'completed', { progress: 100 })];
    });
  return seen;
}

const post = (gw: RunningGateway, path: string, body: unknown) =>
  fetch(`${gw.url}/openai${path}`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const get = (gw: RunningGateway, path: string) => fetch(`${gw.url}/openai${path}`, { headers: AUTH });

async function createVideo(gw: RunningGateway): Promise<string> {
  const res = await post(gw, '/v1/videos', { model: 'sora-2', prompt: 'a cat' });
  expect(res.status).to.equal(200);
  return ((await res.json()) as { id: string }).id;
}

describe('openai plugin: a video is reached with the key that created it', () => {
  let dir: string;
  let store: { store: { driver: 'sqlite'; path: string } };
  let gw: RunningGateway | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'openai-video-keys-'));
    store = { store: { driver: 'sqlite', path: path.join(dir, 'gateway.db') } };
  });
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('retrieves, downloads and remixes with the creating key, and keeps the id the upstream gave', async () => {
    const seen = fakeVideosApi();
    gw = await startGateway(platforms([KEY_A, KEY_B]), store);
    const id = await createVideo(gw);
    expect(id).to.equal('video_1');

    for (let i = 0; i < 2; i += 1) {
      const res = await get(gw, `/v1/videos/${id}`);
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { id: string }).id).to.equal(id);
    }
    const content = await get(gw, `/v1/videos/${id}/content`);
    expect(content.status).to.equal(200);
    expect(await content.text()).to.equal(`mp4 of ${id}`);
    const remix = await post(gw, `/v1/videos/${id}/remix`, { prompt: 'the cat bows' });
    expect(remix.status).to.equal(200);
    const remixId = ((await remix.json()) as { id: string }).id;
    // The remix belongs to the same project: it is reached with the same key too.
    expect((await get(gw, `/v1/videos/${remixId}`)).status).to.equal(200);

    const creator = seen[0].key;
    expect(seen.map((s) => `${s.call} ${s.status}`)).to.deep.equal([
      'create 200', `get ${id} 200`, `get ${id} 200`, `content ${id} 200`, `remix ${id} 200`, `get ${remixId} 200`,
    ]);
    expect(seen.map((s) => s.key)).to.deep.equal(Array(6).fill(creator));
  });

  it('still spreads creations over the keys', async () => {
    const seen = fakeVideosApi();
    gw = await startGateway(platforms([KEY_A, KEY_B]), store);
    await createVideo(gw);
    await createVideo(gw);
    expect(seen.map((s) => s.key)).to.deep.equal([KEY_A, KEY_B]);
  });

  it('remembers each video\'s key across a restart on the same store, whatever the order of the keys', async () => {
    const seen = fakeVideosApi();
    gw = await startGateway(platforms([KEY_A, KEY_B]), store);
    const ids = [await createVideo(gw), await createVideo(gw)];
    await gw.close();

    gw = await startGateway(platforms([KEY_B, KEY_A]), store);
    for (const id of ids) {
      expect((await get(gw, `/v1/videos/${id}`)).status).to.equal(200);
      expect((await get(gw, `/v1/videos/${id}/content`)).status).to.equal(200);
    }
    expect(seen.map((s) => `${s.call} ${s.key} ${s.status}`)).to.deep.equal([
      `create ${KEY_A} 200`,
      `create ${KEY_B} 200`,
      `get video_1 ${KEY_A} 200`,
      `content video_1 ${KEY_A} 200`,
      `get video_2 ${KEY_B} 200`,
      `content video_2 ${KEY_B} 200`,
    ]);
  });

  it('finds another key of the project when the creating key was removed, and keeps using it', async () => {
    const seen = fakeVideosApi();
    gw = await startGateway(platforms([KEY_A, KEY_B]), store);
    await createVideo(gw);
    const id = await createVideo(gw); // made with KEY_B
    await gw.close();

    gw = await startGateway(platforms([KEY_A, KEY_B2]), store);
    expect((await get(gw, `/v1/videos/${id}`)).status).to.equal(200);
    expect((await get(gw, `/v1/videos/${id}/content`)).status).to.equal(200);
    expect(seen.slice(2).map((s) => `${s.call} ${s.key} ${s.status}`)).to.deep.equal([
      `get ${id} ${KEY_A} 404`, // asking each configured key in turn
      `get ${id} ${KEY_B2} 200`,
      `get ${id} ${KEY_B2} 200`,
      `content ${id} ${KEY_B2} 200`, // remembered: no more asking around
    ]);
  });

  it('answers the upstream\'s 404 when no configured key sees a video whose key was removed', async () => {
    const seen = fakeVideosApi();
    gw = await startGateway(platforms([KEY_A, KEY_B]), store);
    await createVideo(gw);
    const id = await createVideo(gw); // made with KEY_B
    await gw.close();

    gw = await startGateway(platforms([KEY_A]), store);
    const res = await get(gw, `/v1/videos/${id}`);
    expect(res.status).to.equal(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.equal(`Video with id '${id}' not found.`);
    expect(seen.slice(2).map((s) => `${s.call} ${s.key} ${s.status}`)).to.deep.equal([`get ${id} ${KEY_A} 404`]);
  });

  it('sends a video the gateway did not create with the next key of the rotation, once', async () => {
    const seen = fakeVideosApi();
    gw = await startGateway(platforms([KEY_A, KEY_B]), store);
    const res = await get(gw, '/v1/videos/video_elsewhere');
    expect(res.status).to.equal(404);
    expect(seen.map((s) => `${s.call} ${s.key}`)).to.deep.equal([`get video_elsewhere ${KEY_A}`]);
  });
});
