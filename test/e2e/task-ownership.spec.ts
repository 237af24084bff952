import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import OpenAI from 'openai';
import { createSqliteStore } from '../../core/store/sqlite-store';
import { decodeVeoVideoId, encodeVeoVideoId } from '../../plugins/gemini/src/veo-video-id';
import { startSimulator, type Simulator } from '../../simulator';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';

const OTHER_LICENSE = 'lic-other-9876543210';

/** Image tasks and videos answer only the license that made them: another one's read is the 404 of an unknown id. */
describe('e2e: image tasks and videos belong to the license that made them', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway(
      {
        openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-key-0001' }] },
        gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIzaSy-simulated-upstream-key-0001' }] },
      },
      { licenses: [TEST_LICENSE, OTHER_LICENSE] },
    );
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });

  const client = (platform: string, license: string): OpenAI => new OpenAI({ apiKey: license, baseURL: `${gw.url}/${platform}/v1`, maxRetries: 0 });

  for (const [platform, model] of [
    ['openai', 'gpt-image-1'],
    ['gemini', 'gemini-2.5-flash-image'],
  ] as const) {
    it(`${platform}: an image task answers its own license and is a 404 to another, whose answer names no owner`, async () => {
      const submitted = await fetch(`${gw.url}/${platform}/v1/images/generations?async=true`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, prompt: 'an orange pixel' }),
      });
      expect(submitted.status).to.equal(202);
      const { task_id } = (await submitted.json()) as { task_id: string };
      const own = await client(platform, TEST_LICENSE).get<Record<string, unknown>>(`/images/${task_id}`);
      expect(own.task_id).to.equal(task_id);
      expect(own).to.not.have.property('owner');
      const error = await client(platform, OTHER_LICENSE)
        .get(`/images/${task_id}`)
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(OpenAI.NotFoundError);
      expect((error as Error).message).to.include(`no image task "${task_id}"`);
    });

    it(`${platform}: a video answers its own license; another one's retrieve and download are 404s`, async () => {
      const video = await client(platform, TEST_LICENSE).videos.create({ prompt: 'a calico cat' });
      expect((await client(platform, TEST_LICENSE).videos.retrieve(video.id)).id).to.equal(video.id);
      const other = client(platform, OTHER_LICENSE);
      const calls = sim.requests.length;
      for (const attempt of [() => other.videos.retrieve(video.id), () => other.videos.downloadContent(video.id)]) {
        const error = await attempt().catch((e: unknown) => e);
        expect(error).to.be.instanceOf(OpenAI.NotFoundError);
        expect((error as Error).message).to.include(`no video "${video.id}"`);
      }
      // Refused before any upstream call.
      expect(sim.requests.length).to.equal(calls);
    });
  }

  it('gemini: another spelling of the same Veo operation (a time written 0…, the key part emptied) is still not another license\'s', async () => {
    const video = await client('gemini', TEST_LICENSE).videos.create({ prompt: 'a calico cat' });
    const ref = decodeVeoVideoId(video.id);
    const spellings = [
      'video_' + Buffer.from(`0${ref.createdAt}.${ref.credential}.${ref.operation}`).toString('base64url'),
      encodeVeoVideoId({ ...ref, credential: '' }),
    ];
    for (const id of spellings) {
      expect(decodeVeoVideoId(id).operation).to.equal(ref.operation);
      const error = await client('gemini', OTHER_LICENSE)
        .videos.retrieve(id)
        .catch((e: unknown) => e);
      expect(error, id).to.be.instanceOf(OpenAI.NotFoundError);
      expect((await client('gemini', TEST_LICENSE).videos.retrieve(id)).status, id).to.be.a('string');
    }
  });

  it('openai: another license cannot remix a video it did not make', async () => {
    const video = await client('openai', TEST_LICENSE).videos.create({ prompt: 'a calico cat' });
    const error = await client('openai', OTHER_LICENSE)
      .videos.remix(video.id, { prompt: 'a bow' })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.NotFoundError);
  });
});

/** A record whose owner cannot be read back (a damaged store) must not make its video anybody's. */
describe('e2e: a video whose ownership record is damaged is nobody\'s to read', function () {
  this.timeout(30_000);
  let sim: Simulator;
  let dir: string;
  let file: string;
  const start = (): Promise<RunningGateway> =>
    startGateway(
      {
        openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-key-0001' }] },
        gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIzaSy-simulated-upstream-key-0001' }] },
      },
      { licenses: [TEST_LICENSE, OTHER_LICENSE], store: { driver: 'sqlite', path: file } },
    );
  before(async () => {
    sim = await startSimulator({ port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), 'gw-video-owner-'));
    file = path.join(dir, 'gateway.db');
  });
  after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The row's text after each damage: not JSON, or JSON that names no license. */
  const DAMAGES: Record<string, (value: Record<string, unknown>) => string> = {
    'not JSON': () => '{not json',
    'owner null': (value) => JSON.stringify({ ...value, owner: null }),
    'owner 42': (value) => JSON.stringify({ ...value, owner: 42 }),
    'value null': () => 'null',
    'value []': () => '[]',
  };

  for (const platform of ['openai', 'gemini'] as const) {
    it(`${platform}: after the row is damaged (${Object.keys(DAMAGES).join(', ')}), another license gets the 404 it got before, as does the owner (not a 500)`, async () => {
      for (const [damage, damaged] of Object.entries(DAMAGES)) {
        let gw = await start();
        const client = (license: string): OpenAI => new OpenAI({ apiKey: license, baseURL: `${gw.url}/${platform}/v1`, maxRetries: 0 });
        const status = (promise: Promise<unknown>): Promise<number | undefined> => promise.then(() => 200, (error: { status?: number }) => error.status);
        const video = await client(TEST_LICENSE).videos.create({ prompt: 'a calico cat' });
        expect(await status(client(OTHER_LICENSE).videos.retrieve(video.id)), damage).to.equal(404);
        await gw.close();
        const db = new Database(file);
        const [namespace, key] = platform === 'openai' ? ['openai-video-keys:openai', video.id] : ['veo-videos:gemini', decodeVeoVideoId(video.id).operation];
        const row = db.prepare('SELECT value FROM entries WHERE namespace = ? AND key = ?').get(namespace, key) as { value: string };
        expect(db.prepare('UPDATE entries SET value = ? WHERE namespace = ? AND key = ?').run(damaged(JSON.parse(row.value) as Record<string, unknown>), namespace, key).changes).to.equal(1);
        db.close();
        gw = await start();
        try {
          expect(await status(client(OTHER_LICENSE).videos.retrieve(video.id)), damage).to.equal(404);
          expect(await status(client(OTHER_LICENSE).videos.downloadContent(video.id)), damage).to.equal(404);
          expect(await status(client(TEST_LICENSE).videos.retrieve(video.id)), damage).to.equal(404);
        } finally {
          await gw.close();
        }
      }
    });
  }
});

/** A record the store refuses at create (a full disk, a busy file) must not leave the video open to every license. */
describe('e2e: a video whose ownership record the store refused is still only its license\'s', function () {
  this.timeout(30_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let dir: string;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), 'gw-video-refused-'));
    const file = path.join(dir, 'gateway.db');
    await createSqliteStore(file).close();
    // Every write of an ownership record fails, as SQLite's own "database or disk is full" would.
    const db = new Database(file);
    db.exec(`CREATE TRIGGER refuse_ownership BEFORE INSERT ON entries
      WHEN NEW.namespace IN ('openai-video-keys:openai', 'veo-videos:gemini')
      BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    db.close();
    gw = await startGateway(
      {
        openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-key-0001' }] },
        gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIzaSy-simulated-upstream-key-0001' }] },
      },
      { licenses: [TEST_LICENSE, OTHER_LICENSE], store: { driver: 'sqlite', path: file } },
    );
  });
  after(async () => {
    await gw.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const platform of ['openai', 'gemini'] as const) {
    it(`${platform}: the create answers the video; another license's retrieve and download are 404s, the owner's retrieve is not (both were 200)`, async () => {
      const client = (license: string): OpenAI => new OpenAI({ apiKey: license, baseURL: `${gw.url}/${platform}/v1`, maxRetries: 0 });
      const status = (promise: Promise<unknown>): Promise<number | undefined> => promise.then(() => 200, (error: { status?: number }) => error.status);
      const video = await client(TEST_LICENSE).videos.create({ prompt: 'a calico cat' });
      expect(await status(client(OTHER_LICENSE).videos.retrieve(video.id))).to.equal(404);
      expect(await status(client(OTHER_LICENSE).videos.downloadContent(video.id))).to.equal(404);
      expect(await status(client(TEST_LICENSE).videos.retrieve(video.id))).to.equal(200);
    });
  }
});
