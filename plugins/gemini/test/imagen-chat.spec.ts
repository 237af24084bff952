import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import OpenAI from 'openai';
import { TEST_LICENSE } from '../../../test/helpers/start-gateway';
import { useSimulatorGateway } from '../../../test/helpers/use-simulator-gateway';

const IMAGEN = 'imagen-4.0-generate-001';
const IMAGE_MARKDOWN = /^!\[image\]\(data:image\/png;base64,[A-Za-z0-9+/=]+\)$/;

/** Spec 4.1: an image-generation model can be called through chat. Imagen models are served by `:predict` only. */
describe('gemini plugin: an Imagen model through chat (SDKs → gateway → simulator)', function () {
  this.timeout(20_000);
  const env = useSimulatorGateway((sim) => ({ gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIzaSy-simulated-upstream-key-0001' }] } }));
  let openai: OpenAI;
  before(() => {
    openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/gemini/v1`, maxRetries: 0 });
  });
  beforeEach(() => env.sim.reset());

  function predictCalls(): Array<{ path: string; body: unknown }> {
    return env.sim.requests.filter((r) => r.path.endsWith(':predict')).map((r) => ({ path: r.path, body: r.body }));
  }

  it('chat: the last user message is the prompt of one :predict, and the image comes back as markdown', async () => {
    const completion = await openai.chat.completions.create({
      model: IMAGEN,
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'hi' },
        { role: 'user', content: 'a red bicycle' },
      ],
      size: '1792x1024',
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(completion.choices[0].message.content).to.match(IMAGE_MARKDOWN);
    expect(completion.choices[0].finish_reason).to.equal('stop');
    expect(predictCalls()).to.deep.equal([
      { path: `/v1beta/models/${IMAGEN}:predict`, body: { instances: [{ prompt: 'a red bicycle' }], parameters: { sampleCount: 1, includeRaiReason: true, aspectRatio: '16:9' } } },
    ]);
    expect(env.sim.requests.filter((r) => r.path.includes(':generateContent') || r.path.includes(':streamGenerateContent'))).to.deep.equal([]);
  });

  it('chat, streamed: the image arrives as one delta, then the finish', async () => {
    let content = '';
    const finishes: string[] = [];
    for await (const chunk of await openai.chat.completions.create({ model: IMAGEN, stream: true, messages: [{ role: 'user', content: 'a red bicycle' }] })) {
      content += chunk.choices[0]?.delta.content ?? '';
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
    }
    expect(content).to.match(IMAGE_MARKDOWN);
    expect(finishes).to.deep.equal(['stop']);
    expect(predictCalls()).to.have.length(1);
  });

  it('Messages client: the image comes back as an image block', async () => {
    const anthropic = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/gemini`, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: IMAGEN, max_tokens: 100, messages: [{ role: 'user', content: 'a red bicycle' }] });
    expect(JSON.stringify(message.content)).to.match(/image\/png/);
    expect(predictCalls()).to.have.length(1);
  });

  it('an image in the prompt (an edit, which Imagen cannot do) is a 400, nothing sent', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';
    const error = await openai.chat.completions
      .create({ model: IMAGEN, messages: [{ role: 'user', content: [{ type: 'text', text: 'make it blue' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }] }] })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).to.match(/Imagen\) takes a text prompt only/);
    expect(env.sim.requests).to.deep.equal([]);
  });

  it('refuses what no Gemini upstream answers, as for any other model (log probabilities, a forced tool), nothing sent', async () => {
    const logprobs = await openai.chat.completions.create({ model: IMAGEN, logprobs: true, messages: [{ role: 'user', content: 'a cat' }] }).catch((e: unknown) => e);
    expect(logprobs).to.be.instanceOf(OpenAI.BadRequestError);
    expect((logprobs as InstanceType<typeof OpenAI.BadRequestError>).param).to.equal('logprobs');
    const tool = { type: 'function' as const, function: { name: 'f', parameters: { type: 'object' } } };
    const forced = await openai.chat.completions.create({ model: IMAGEN, tools: [tool], tool_choice: 'required', messages: [{ role: 'user', content: 'a cat' }] }).catch((e: unknown) => e);
    expect(forced).to.be.instanceOf(OpenAI.BadRequestError);
    expect((forced as InstanceType<typeof OpenAI.BadRequestError>).param).to.equal('tool_choice');
    expect(env.sim.requests).to.deep.equal([]);
  });

  it('refuses a forced built-in tool too (a Messages client forcing web search)', async () => {
    const anthropic = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/gemini`, maxRetries: 0 });
    const error = await anthropic.messages
      .create({ model: IMAGEN, max_tokens: 100, tools: [{ type: 'web_search_20250305', name: 'web_search' }], tool_choice: { type: 'tool', name: 'web_search' }, messages: [{ role: 'user', content: 'a cat' }] })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Anthropic.BadRequestError);
    expect(env.sim.requests).to.deep.equal([]);
  });
});
