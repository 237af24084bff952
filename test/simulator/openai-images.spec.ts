import { expect } from 'chai';
import OpenAI, { toFile } from 'openai';
import { startSimulator, type Simulator } from '../../simulator';
import { SIM_PNG } from '../../simulator/openai-images';
import { parseMultipart } from '../helpers/multipart';

describe('simulator openai images', () => {
  let sim: Simulator;
  let client: OpenAI;
  before(async () => {
    sim = await startSimulator();
    client = new OpenAI({ apiKey: 'sk-sim', baseURL: `${sim.openaiUrl}/v1`, maxRetries: 0 });
  });
  after(() => sim.close());
  beforeEach(() => sim.reset());

  it('generates with a GPT image model: a valid PNG as b64_json, with usage and echoes', async () => {
    const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'a cat', n: 2, size: '1024x1536', quality: 'low' });
    expect(result.data).to.have.length(2);
    expect(Buffer.from(result.data![0].b64_json!, 'base64').equals(SIM_PNG)).to.equal(true);
    expect(result).to.deep.include({ size: '1024x1536', quality: 'low', output_format: 'png' });
    expect(result.usage?.total_tokens).to.be.a('number');
  });

  it('refuses response_format for a GPT image model, like the API', async () => {
    const error = await client.images.generate({ model: 'gpt-image-1', prompt: 'x', response_format: 'url' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).to.equal('response_format');
  });

  it('answers DALL·E url requests with a URL it serves without a key', async () => {
    const result = await client.images.generate({ model: 'dall-e-3', prompt: 'x', response_format: 'url' });
    const url = result.data![0].url!;
    expect(result.data![0].revised_prompt).to.include('x');
    const res = await fetch(url);
    expect(res.headers.get('content-type')).to.equal('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(SIM_PNG)).to.equal(true);
  });

  it('edits from multipart files (image[] repeated) as the SDK sends them', async () => {
    const result = await client.images.edit({ model: 'gpt-image-1', prompt: 'basket', image: [await toFile(SIM_PNG, 'a.png', { type: 'image/png' }), await toFile(SIM_PNG, 'b.png', { type: 'image/png' })] });
    expect(result.data).to.have.length(1);
    const seen = sim.requests.at(-1)!;
    const form = await parseMultipart(seen.rawBody, String(seen.headers['content-type']));
    expect(form.files.map((file) => file.field)).to.deep.equal(['image[]', 'image[]']);
    expect(result.usage?.input_tokens_details.image_tokens).to.equal(130);
  });

  it('edits from the JSON images form, and refuses an edit without an image', async () => {
    const ok = await fetch(`${sim.openaiUrl}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x', images: [{ image_url: `data:image/png;base64,${SIM_PNG.toString('base64')}` }] }),
    });
    expect(ok.status).to.equal(200);
    const missing = await client.images.edit({ model: 'gpt-image-1', prompt: 'x', image: [] as unknown as File }).catch((e: unknown) => e);
    expect(missing).to.be.instanceOf(OpenAI.BadRequestError);
  });

  it('honours error directives in the prompt', async () => {
    const error = await client.images.generate({ model: 'gpt-image-1', prompt: 'x [sim:error=429]' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.RateLimitError);
  });
});
