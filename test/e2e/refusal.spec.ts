import { expect } from 'chai';
import OpenAI from 'openai';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../helpers/start-raw-upstream';

const REFUSAL = "I'm sorry, I can't help with that.";

/** A chat-completions upstream that declines (message.refusal / delta.refusal), to clients of the other formats. */
describe('e2e: a refusal from a chat upstream reaches each client format as that format says it', function () {
  this.timeout(20_000);
  let upstream: RawUpstream;
  let gw: RunningGateway;
  let client: OpenAI;

  before(async () => {
    upstream = await startRawUpstream();
    upstream.handle((_req, res, body) => {
      const stream = (JSON.parse(body.toString('utf8')) as { stream?: boolean }).stream === true;
      if (!stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4.1', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: REFUSAL }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: Record<string, unknown>, finish: string | null) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.end(chunk({ role: 'assistant', content: null, refusal: '' }, null) + chunk({ refusal: "I'm sorry, " }, null) + chunk({ refusal: "I can't help with that." }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n');
    });
    gw = await startGateway({ pool: { plugin: 'token-pool', baseUrl: upstream.url, rotation: 1, tokens: [{ token: 'tok-aaaaaaaaaaaa-0001' }] } });
    client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/pool/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  it('Responses (openai SDK, non-stream and stream): a message whose content is a refusal part', async () => {
    const whole = await client.responses.create({ model: 'gpt-4.1', input: 'something bad' });
    const streamed = await client.responses.stream({ model: 'gpt-4.1', input: 'something bad' }).finalResponse();
    for (const response of [whole, streamed]) {
      const message = response.output.find((item) => item.type === 'message');
      expect(message?.type === 'message' && message.content[0]).to.deep.include({ type: 'refusal', refusal: REFUSAL });
      expect(response.output_text).to.equal('');
    }
  });

  it('chat completions (passed through) keeps message.refusal', async () => {
    const answer = await client.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'something bad' }] });
    expect(answer.choices[0].message).to.include({ content: null, refusal: REFUSAL });
  });
});
