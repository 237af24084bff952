import { expect } from 'chai';
import OpenAI, { toFile } from 'openai';
import { startSimulator, type Simulator } from '../../simulator';
import { SIM_PNG } from '../../simulator/openai-images';
import { SIM_MP4 } from '../../simulator/openai-videos';
import { FORMAT_PLUGIN_PATH } from '../helpers/format-plugin';
import { parseMultipart } from '../helpers/multipart';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';

const AUTH = { authorization: `Bearer ${TEST_LICENSE}` };

describe('e2e: openai SDK → gateway → simulator: images, videos, search', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let client: OpenAI;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway(
      {
        openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-key-0001' }] },
        text: { plugin: FORMAT_PLUGIN_PATH, baseUrl: sim.openaiUrl, upstream: 'chat-completions', apiKey: 'sk-sim' },
      },
      { limits: { jsonBodyBytes: 1024 * 1024, fileBytes: 64 * 1024 } },
    );
    client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(() => sim.reset());

  describe('images', () => {
    it('images.generate answers b64_json as a data URI of the PNG', async () => {
      const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'a cat', size: '1024x1024', quality: 'low' });
      const uri = result.data![0].b64_json!;
      expect(uri.startsWith('data:image/png;base64,')).to.equal(true);
      expect(Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64').equals(SIM_PNG)).to.equal(true);
      expect(result.usage?.total_tokens).to.be.a('number');
      expect(sim.requests.at(-1)!.headers.authorization).to.equal('Bearer sk-sim-upstream-key-0001');
    });

    it('images.generate with response_format url on a GPT image model answers a gateway URL serving the PNG', async () => {
      const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'a cat', response_format: 'url' });
      const url = result.data![0].url!;
      expect(url.startsWith(`${gw.url}/files/`)).to.equal(true);
      const file = await fetch(url);
      expect(file.headers.get('content-type')).to.equal('image/png');
      expect(Buffer.from(await file.arrayBuffer()).equals(SIM_PNG)).to.equal(true);
    });

    it('images.generate on DALL·E 3 defaults to b64_json even though the model defaults to url', async () => {
      const result = await client.images.generate({ model: 'dall-e-3', prompt: 'an orange pixel' });
      expect(result.data![0].b64_json).to.match(/^data:image\/png;base64,/);
      expect(result.data![0].revised_prompt).to.include('an orange pixel');
    });

    it('images.edit with several files (toFile) reaches the upstream as image[] parts, bytes intact', async () => {
      const other = Buffer.concat([SIM_PNG, Buffer.from([1, 2, 3])]);
      const result = await client.images.edit({
        model: 'gpt-image-1',
        prompt: 'Put both items in one gift basket',
        image: [await toFile(SIM_PNG, 'lotion.png', { type: 'image/png' }), await toFile(other, 'soap.png', { type: 'image/png' })],
        size: '1024x1024',
      });
      expect(result.data![0].b64_json).to.match(/^data:image\/png;base64,/);
      const seen = sim.requests.at(-1)!;
      const form = await parseMultipart(seen.rawBody, String(seen.headers['content-type']));
      expect(form.files.map((file) => [file.field, file.filename])).to.deep.equal([['image[]', 'lotion.png'], ['image[]', 'soap.png']]);
      expect(form.files[1].data.equals(other)).to.equal(true);
      expect(form.fields).to.deep.include(['size', '1024x1024']);
      expect(result.usage?.input_tokens_details.image_tokens).to.equal(130);
    });

    it('images.edit with a file over the limit answers 413 without reaching the upstream', async () => {
      const error = await client.images.edit({ model: 'gpt-image-1', prompt: 'x', image: await toFile(Buffer.alloc(70 * 1024, 1), 'big.png', { type: 'image/png' }) }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).to.equal(413);
      expect(sim.requests).to.have.length(0);
    });

    it('an enum violation is a BadRequestError naming the field', async () => {
      const error = await client.images.generate({ model: 'gpt-image-1', prompt: 'x', quality: 'best' as 'high' }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).to.equal('quality');
    });

    it('an async generation answers 202 and its task completes with the image result', async () => {
      const res = await fetch(`${gw.url}/openai/v1/images/generations?async=true`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-image-1', prompt: 'slow [sim:delay=200]' }) });
      expect(res.status).to.equal(202);
      const { task_id } = (await res.json()) as { task_id: string };
      let task: { status: string; result: OpenAI.ImagesResponse | null } = { status: 'queued', result: null };
      for (let i = 0; i < 100 && task.status !== 'completed'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        task = await client.get(`/images/${task_id}`);
      }
      expect(task.status).to.equal('completed');
      expect(task.result?.data![0].b64_json).to.match(/^data:image\/png;base64,/);
    });
  });

  describe('videos', () => {
    it('videos.create with a reference file, retrieve until completed, downloadContent', async () => {
      const video = await client.videos.create({ model: 'sora-2', prompt: 'A calico cat playing a tiny piano', seconds: '8', size: '1280x720', input_reference: await toFile(SIM_PNG, 'first_frame.png', { type: 'image/png' }) });
      expect(video).to.deep.include({ object: 'video', status: 'queued', model: 'sora-2', seconds: '8', size: '1280x720' });
      const form = await parseMultipart(sim.requests.at(-1)!.rawBody, String(sim.requests.at(-1)!.headers['content-type']));
      expect(form.files.map((file) => file.field)).to.deep.equal(['input_reference']);
      expect(form.files[0].data.equals(SIM_PNG)).to.equal(true);

      const statuses: string[] = [];
      let current = video;
      while (current.status !== 'completed' && statuses.length < 5) {
        current = await client.videos.retrieve(video.id);
        statuses.push(current.status);
      }
      expect(statuses).to.deep.equal(['in_progress', 'completed']);
      expect(current.progress).to.equal(100);

      const content = await client.videos.downloadContent(video.id);
      expect(content.headers.get('content-type')).to.equal('video/mp4');
      expect(content.headers.get('content-length')).to.equal(String(SIM_MP4.length));
      expect(Buffer.from(await content.arrayBuffer()).equals(SIM_MP4)).to.equal(true);

      const ranged = await fetch(`${gw.url}/openai/v1/videos/${video.id}/content`, { headers: { ...AUTH, range: 'bytes=0-99' } });
      expect(ranged.status).to.equal(206);
      expect(ranged.headers.get('content-range')).to.equal(`bytes 0-99/${SIM_MP4.length}`);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(SIM_MP4.subarray(0, 100))).to.equal(true);

      const detailed = (await (await fetch(`${gw.url}/openai/v1/videos/${video.id}?detail=true`, { headers: AUTH })).json()) as { status: string; detail: { id: string } };
      expect(detailed.detail.id).to.equal(video.id);

      const remix = await client.videos.remix(video.id, { prompt: 'The cat takes a bow' });
      expect(remix).to.deep.include({ status: 'queued', remixed_from_video_id: video.id });
    });

    it('videos.retrieve of an unknown id raises NotFoundError with the upstream message', async () => {
      const error = await client.videos.retrieve('video_does_not_exist').catch((e: unknown) => e);
      expect(error).to.be.instanceOf(OpenAI.NotFoundError);
      expect((error as Error).message).to.include("Video with id 'video_does_not_exist' not found.");
    });
  });

  describe('search', () => {
    it('answers /v1/alpha/search with output and results from the Responses web_search tool', async () => {
      const res = await fetch(`${gw.url}/openai/v1/alpha/search`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'codex-1', model: 'gpt-4.1-mini', commands: { search_query: [{ q: 'node lts' }, { q: 'bun' }] } }),
      });
      expect(res.status).to.equal(200);
      const body = (await res.json()) as { output: string; encrypted_output: null; results: Array<{ ref_id: string; domain: string; url: string }> };
      expect(body.encrypted_output).to.equal(null);
      expect(body.results.map((result) => result.ref_id)).to.deep.equal(['turn0search0', 'turn0search1', 'turn0search2']);
      expect(body.results[0].domain).to.equal('example.com');
      expect(body.output).to.include('Example Domain').and.to.include('[turn0search1]');
      expect(sim.requests).to.have.length(1);
      expect(sim.requests[0].path).to.equal('/v1/responses');
    });
  });

  it('answers 404 in the OpenAI shape on a platform that does not serve images', async () => {
    const res = await fetch(`${gw.url}/text/v1/images/generations`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"prompt":"x","model":"m"}' });
    expect(res.status).to.equal(404);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.message).to.match(/does not serve/);
    expect(body.error.type).to.be.a('string');
  });
});
