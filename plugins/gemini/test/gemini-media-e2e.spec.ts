import { expect } from 'chai';
import OpenAI, { toFile } from 'openai';
import { startSimulator, type Simulator } from '../../../simulator';
import { SIM_PNG_BASE64 } from '../../../simulator/gemini-media';
import { SIM_MP4 } from '../../../simulator/openai-videos';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { postJson } from './helpers';

const SIM_KEY = 'AIzaSy-sim-upstream-key-0001';

describe('e2e: openai SDK → gateway → simulator (gemini images, videos, search)', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let openai: OpenAI;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: SIM_KEY }] } });
    openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/gemini/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(() => sim.reset());

  it('images.generate with a Gemini image model answers a data URI of the PNG', async () => {
    const result = await openai.images.generate({ model: 'gemini-2.5-flash-image', prompt: 'an orange pixel', size: '1536x1024' });
    expect(result.data).to.have.length(1);
    expect(result.data?.[0].b64_json).to.equal(`data:image/png;base64,${SIM_PNG_BASE64}`);
    const upstream = sim.requests.find((request) => request.path.includes(':generateContent'));
    expect(upstream?.body).to.deep.include({ generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '3:2' } } });
  });

  it('images.generate with an Imagen model uses :predict and skips non-image predictions', async () => {
    const result = await openai.images.generate({ model: 'imagen-4.0-generate-001', prompt: 'an orange pixel', n: 2 });
    expect(result.data?.map((item) => item.b64_json)).to.deep.equal([`data:image/png;base64,${SIM_PNG_BASE64}`, `data:image/png;base64,${SIM_PNG_BASE64}`]);
    const upstream = sim.requests.find((request) => request.path.endsWith(':predict'));
    expect(upstream?.body).to.deep.include({ instances: [{ prompt: 'an orange pixel' }] });
  });

  it('images.generate with response_format url answers a gateway URL that serves the bytes', async () => {
    const result = await openai.images.generate({ model: 'gemini-2.5-flash-image', prompt: 'an orange pixel', response_format: 'url' });
    const url = result.data?.[0].url ?? '';
    expect(url).to.match(/\/files\/file_[\w-]+\.png$/);
    const file = await fetch(url);
    expect(file.headers.get('content-type')).to.equal('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(SIM_PNG_BASE64, 'base64'))).to.equal(true);
  });

  it('images.edit sends the uploaded images as inlineData parts', async () => {
    const png = Buffer.from(SIM_PNG_BASE64, 'base64');
    const result = await openai.images.edit({
      model: 'gemini-2.5-flash-image',
      prompt: 'make it blue',
      image: [await toFile(png, 'a.png', { type: 'image/png' }), await toFile(png, 'b.png', { type: 'image/png' })],
    });
    expect(result.data?.[0].b64_json).to.match(/^data:image\/png;base64,/);
    const upstream = sim.requests.find((request) => request.path.includes(':generateContent'));
    const parts = (upstream?.body as { contents: Array<{ parts: unknown[] }> }).contents[0].parts;
    expect(parts).to.deep.equal([{ text: 'make it blue' }, { inlineData: { mimeType: 'image/png', data: SIM_PNG_BASE64 } }, { inlineData: { mimeType: 'image/png', data: SIM_PNG_BASE64 } }]);
  });

  it('async=true answers a task that images/{task_id} reports completed', async () => {
    const accepted = await postJson(`${gw.url}/gemini/v1/images/generations?async=true`, { model: 'gemini-2.5-flash-image', prompt: 'an orange pixel' });
    expect(accepted.status).to.equal(202);
    const { task_id: taskId } = (await accepted.json()) as { task_id: string };
    let task: { status: string; result: { data: Array<{ b64_json: string }> } | null } = { status: 'queued', result: null };
    for (let i = 0; i < 50 && task.status !== 'completed' && task.status !== 'failed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      task = (await (await fetch(`${gw.url}/gemini/v1/images/${taskId}`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } })).json()) as typeof task;
    }
    expect(task.status).to.equal('completed');
    expect(task.result?.data[0].b64_json).to.equal(`data:image/png;base64,${SIM_PNG_BASE64}`);
  });

  it('videos.create / retrieve / downloadContent run a Veo operation to the file', async () => {
    const created = await openai.videos.create({ model: 'veo-3.0-generate-001', prompt: 'a cat at a piano', size: '1280x720', seconds: '8' });
    expect(created).to.include({ object: 'video', status: 'queued', model: 'veo-3.0-generate-001', prompt: 'a cat at a piano' });
    expect(created.id).to.match(/^video_[\w-]+$/);
    const start = sim.requests.find((request) => request.path.endsWith(':predictLongRunning'));
    expect(start?.body).to.deep.equal({ instances: [{ prompt: 'a cat at a piano' }], parameters: { aspectRatio: '16:9', resolution: '720p', durationSeconds: 8 } });

    const first = await openai.videos.retrieve(created.id);
    expect(first.status).to.equal('in_progress');
    const done = await openai.videos.retrieve(created.id);
    expect(done).to.include({ status: 'completed', progress: 100, model: 'veo-3.0-generate-001' });

    const content = await openai.videos.downloadContent(created.id);
    expect(content.headers.get('content-type')).to.equal('video/mp4');
    expect(Buffer.from(await content.arrayBuffer()).equals(SIM_MP4)).to.equal(true);

    const ranged = await fetch(`${gw.url}/gemini/v1/videos/${created.id}/content`, { headers: { authorization: `Bearer ${TEST_LICENSE}`, range: 'bytes=0-99' } });
    expect(ranged.status).to.equal(206);
    expect(ranged.headers.get('content-range')).to.equal(`bytes 0-99/${SIM_MP4.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(SIM_MP4.subarray(0, 100))).to.equal(true);
    // The upstream's redirect was followed (key isolation for other hosts: gemini-videos.spec.ts).
    expect(sim.requests.filter((request) => request.path.includes('/sim-storage/'))).to.have.length(2);
  });

  it('a filtered Veo operation is a failed video with the reason; detail=true adds the operation', async () => {
    const created = await openai.videos.create({ model: 'veo-3.0-generate-001', prompt: 'something [sim:video-fail]' });
    await openai.videos.retrieve(created.id);
    const response = await fetch(`${gw.url}/gemini/v1/videos/${created.id}?detail=true`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
    const video = (await response.json()) as { status: string; error: { code: string; message: string }; detail: { done: boolean } };
    expect(video.status).to.equal('failed');
    expect(video.error).to.deep.equal({ code: 'content_filtered', message: 'The prompt was filtered (simulated).' });
    expect(video.detail.done).to.equal(true);
  });

  it('videos.remix is a clear 400', async () => {
    const created = await openai.videos.create({ prompt: 'a cat' });
    const error = await openai.videos.remix(created.id, { prompt: 'a dog' }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).to.match(/cannot remix/);
  });

  it('alpha/search answers grounded results for every query in one call', async () => {
    const response = await postJson(`${gw.url}/gemini/v1/alpha/search`, { id: 's1', model: 'gemini-2.5-flash', commands: { search_query: [{ q: 'node streams' }, { q: 'express 5' }] } });
    expect(response.status).to.equal(200);
    const body = (await response.json()) as { output: string; encrypted_output: null; results: Array<Record<string, string>> };
    expect(body.encrypted_output).to.equal(null);
    expect(body.results.map((result) => result.url)).to.deep.equal([
      'https://example.com/node-streams',
      'https://docs.example.org/node-streams',
      'https://example.com/express-5',
      'https://docs.example.org/express-5',
    ]);
    expect(body.results[0]).to.deep.equal({ type: 'text_result', domain: 'example.com', ref_id: 'turn0search0', snippet: 'Result 1 about node streams.', title: 'example.com', url: 'https://example.com/node-streams' });
    expect(body.output).to.contain('Result 2 about express 5.');
    expect(sim.requests.filter((request) => request.path.includes(':generateContent'))).to.have.length(1);
  });
});
