import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import { TEST_LICENSE } from '../helpers/start-gateway';
import { useSimulatorGateway } from '../helpers/use-simulator-gateway';

/**
 * The Anthropic SDK's message threads (`client.beta.messages.thread()`, and its tool runner) send only each turn's new
 * messages with `thread: {type: "continue"}`, trusting the server to hold the rest. Only Anthropic holds threads: on a
 * translated platform the gateway answers `thread_not_found`, on which the SDK replays the whole conversation.
 */
describe('e2e: Anthropic SDK message threads on translated platforms (Anthropic SDK → gateway → simulator)', function () {
  this.timeout(20_000);
  const env = useSimulatorGateway((sim) => ({
    gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIzaSy-simulated-upstream-key-0001' }] },
    openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-0001' }] },
  }));

  const cases = [
    { platform: 'gemini', model: 'gemini-2.5-flash', turns: (body: Record<string, unknown>) => (body.contents as unknown[]).length },
    { platform: 'openai', model: 'gpt-4.1', turns: (body: Record<string, unknown>) => (body.messages as Array<{ role: string }>).filter((m) => m.role !== 'system').length },
  ];
  for (const { platform, model, turns } of cases) {
    it(`${platform}: the second turn reaches the upstream with the first one before it, not alone`, async () => {
      env.sim.reset();
      const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/${platform}`, maxRetries: 0 });
      const thread = client.beta.messages.thread({ model, max_tokens: 100, system: 'You are terse.' });
      await thread.send({ role: 'user', content: 'My name is Bob.' });
      const second = await thread.send({ role: 'user', content: 'What is my name?' });
      expect(second.content[0]).to.deep.include({ type: 'text' });
      const upstream = env.sim.requests.filter((r) => r.method === 'POST').map((r) => r.body as Record<string, unknown>);
      // Turn 1; turn 2 refused by the gateway (never sent upstream), then replayed whole: user, assistant, user.
      expect(upstream.map(turns)).to.deep.equal([1, 3]);
    });
  }

  it('the refusal of a continued thread is the one Anthropic gives for a thread it does not hold', async () => {
    const res = await fetch(`${env.gw.url}/gemini/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': TEST_LICENSE },
      body: JSON.stringify({ model: 'gemini-2.5-flash', max_tokens: 10, thread: { type: 'continue', previous_message_id: 'msg_1' }, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).to.equal(404);
    const body = (await res.json()) as { type: string; error: { type: string; details?: unknown } };
    expect(body.type).to.equal('error');
    expect(body.error.type).to.equal('not_found_error');
    expect(body.error.details).to.deep.equal({ error_code: 'thread_not_found' });
    // The SDK's own class for it, which code using threads catches.
    const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/gemini`, maxRetries: 0 });
    const error = await client.beta.messages
      .create({ model: 'gemini-2.5-flash', max_tokens: 10, thread: { type: 'continue', previous_message_id: 'msg_1' }, messages: [{ role: 'user', content: 'hi' }] } as never)
      .catch((e: unknown) => e);
    expect((error as Error).constructor.name).to.equal('ThreadNotFoundError');
  });

  it('the Anthropic SDK reads the gateway\'s request id on a translated platform (request-id), on answers and errors', async () => {
    const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/gemini`, maxRetries: 0 });
    const message = await client.messages.create({ model: 'gemini-2.5-flash', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(message._request_id).to.match(/^[0-9a-f-]{36}$/);
    const error = await client.messages.create({ model: 'gemini-2.5-flash', max_tokens: 10, messages: [] }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).requestID).to.match(/^[0-9a-f-]{36}$/);
  });
});
