import { expect } from 'chai';
import OpenAI, { toFile } from 'openai';
import { startSimulator, type Simulator } from '../../simulator';
import { SIM_PNG } from '../../simulator/openai-images';
import { SIM_MP4 } from '../../simulator/openai-videos';
import { parseMultipart } from '../helpers/multipart';

describe('simulator openai videos', () => {
  let sim: Simulator;
  let client: OpenAI;
  before(async () => {
    sim = await startSimulator();
    client = new OpenAI({ apiKey: 'sk-sim', baseURL: `${sim.openaiUrl}/v1`, maxRetries: 0 });
  });
  after(() => sim.close());
  beforeEach(() => sim.reset());

  it('creates a job from the SDK multipart form and moves it queued → in_progress → completed over two polls', async () => {
    const video = await client.videos.create({ model: 'sora-2', prompt: 'a cat', seconds: '8', size: '1280x720', input_reference: await toFile(SIM_PNG, 'frame.png', { type: 'image/png' }) });
    expect(video).to.deep.include({ object: 'video', status: 'queued', progress: 0, seconds: '8', size: '1280x720', completed_at: null });
    const form = await parseMultipart(sim.requests.at(-1)!.rawBody, String(sim.requests.at(-1)!.headers['content-type']));
    expect(form.files.map((file) => file.field)).to.deep.equal(['input_reference']);
    const second = await client.videos.retrieve(video.id);
    expect(second).to.deep.include({ status: 'in_progress', progress: 50 });
    const third = await client.videos.retrieve(video.id);
    expect(third).to.deep.include({ status: 'completed', progress: 100 });
    expect(third.expires_at).to.be.a('number');
  });

  it('creates from JSON and refuses a numeric seconds like the API', async () => {
    const post = (body: unknown) => fetch(`${sim.openaiUrl}/v1/videos`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ prompt: 'x', seconds: '4' })).status).to.equal(200);
    const bad = await post({ prompt: 'x', seconds: 4 });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { error: { param: string } }).error.param).to.equal('seconds');
  });

  it('serves the content once completed, whole or by range', async () => {
    const video = await client.videos.create({ model: 'sora-2', prompt: 'x' });
    const early = await client.videos.downloadContent(video.id).catch((e: unknown) => e);
    expect(early).to.be.instanceOf(OpenAI.NotFoundError);
    await client.videos.retrieve(video.id);
    await client.videos.retrieve(video.id);
    const whole = await client.videos.downloadContent(video.id);
    expect(whole.headers.get('content-type')).to.equal('video/mp4');
    expect(Buffer.from(await whole.arrayBuffer()).equals(SIM_MP4)).to.equal(true);
    const part = await fetch(`${sim.openaiUrl}/v1/videos/${video.id}/content`, { headers: { authorization: 'Bearer k', range: 'bytes=4-11' } });
    expect(part.status).to.equal(206);
    expect(part.headers.get('content-range')).to.equal(`bytes 4-11/${SIM_MP4.length}`);
    expect(await part.text()).to.equal('ftypisom');
    const beyond = await fetch(`${sim.openaiUrl}/v1/videos/${video.id}/content`, { headers: { authorization: 'Bearer k', range: `bytes=${SIM_MP4.length}-` } });
    expect(beyond.status).to.equal(416);
    const thumb = await client.videos.downloadContent(video.id, { variant: 'thumbnail' });
    expect(thumb.headers.get('content-type')).to.equal('image/webp');
  });

  it('fails a job whose prompt asks for it, and remixes only completed jobs', async () => {
    const failing = await client.videos.create({ model: 'sora-2', prompt: 'x [sim:video-fail]' });
    await client.videos.retrieve(failing.id);
    const failed = await client.videos.retrieve(failing.id);
    expect(failed.status).to.equal('failed');
    expect(failed.error?.code).to.equal('moderation_blocked');
    expect(await client.videos.remix(failing.id, { prompt: 'again' }).catch((e: unknown) => e)).to.be.instanceOf(OpenAI.BadRequestError);

    const source = await client.videos.create({ model: 'sora-2', prompt: 'x', seconds: '8' });
    await client.videos.retrieve(source.id);
    await client.videos.retrieve(source.id);
    const remix = await client.videos.remix(source.id, { prompt: 'take a bow' });
    expect(remix).to.deep.include({ status: 'queued', remixed_from_video_id: source.id, prompt: 'take a bow', seconds: '8' });
  });

  it('answers 404 in the fixture shape for an unknown video, and deletes', async () => {
    const error = await client.videos.retrieve('video_nope').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.NotFoundError);
    expect((error as Error).message).to.include("Video with id 'video_nope' not found.");
    const video = await client.videos.create({ model: 'sora-2', prompt: 'x' });
    expect(await client.videos.delete(video.id)).to.deep.equal({ id: video.id, object: 'video.deleted', deleted: true });
  });
});
