import { expect } from 'chai';
import OpenAI from 'openai';
import { TEST_LICENSE } from '../../../test/helpers/start-gateway';
import { messagesEvent, SSE, useClaudeOnFakeUpstream } from './helpers/fake-upstream';
import { messagesStream } from './helpers/messages-stream';

const overloaded = messagesEvent('error', { error: { type: 'overloaded_error', message: 'Overloaded' } });

describe('claude plugin: an upstream stream whose first event is an error', function () {
  this.timeout(20_000);
  const env = useClaudeOnFakeUpstream(['sk-ant-api03-early-error-key-00000000001']);

  it('is answered with its own status before any event, which the OpenAI SDK retries', async () => {
    env.upstream.queue({ status: 200, headers: SSE, body: overloaded });
    const once = await env.openai.chat.completions.create({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }], stream: true }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(once).to.be.instanceOf(OpenAI.APIError);
    expect((once as InstanceType<typeof OpenAI.APIError>).status).to.equal(503);

    // With retries (the SDK's default), the next attempt's answer is the client's.
    env.upstream.queue({ status: 200, headers: SSE, body: overloaded }, { status: 200, headers: SSE, body: messagesStream('msg_2', [{ type: 'text', text: 'Hello.' }], 'end_turn') });
    const retrying = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/claude/v1`, maxRetries: 1, timeout: 10_000 });
    let text = '';
    const stream = await retrying.chat.completions.create({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }], stream: true });
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).to.equal('Hello.');
  });
});
