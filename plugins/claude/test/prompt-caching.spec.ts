import { expect } from 'chai';
import { fixtureBytes } from '../../../test/helpers/fixtures';
import { TEST_LICENSE } from '../../../test/helpers/start-gateway';
import { withAutomaticCaching } from '../src/prompt-caching';
import { useClaudeOnFakeUpstream } from './helpers/fake-upstream';

const basic = fixtureBytes('anthropic-messages/response-basic.json');
type Sent = Record<string, unknown>;

describe('claude plugin: automatic prompt caching of translated requests', function () {
  this.timeout(20_000);
  const env = useClaudeOnFakeUpstream(['sk-ant-api03-caching-key-0000000000001']);

  it('asks Anthropic to cache a chat client\'s conversation (top-level cache_control), whose cached reads come back as cached_tokens', async () => {
    const answer = JSON.parse(basic.toString('utf8')) as { usage: Record<string, number> };
    answer.usage = { input_tokens: 12, cache_read_input_tokens: 3000, cache_creation_input_tokens: 0, output_tokens: 8 };
    env.upstream.queue({ status: 200, body: JSON.stringify(answer) });
    const completion = await env.openai.chat.completions.create({ model: 'claude-sonnet-4-6', messages: [{ role: 'system', content: 'A long, stable prompt.' }, { role: 'user', content: 'Hi' }] });
    expect((env.upstream.seen[0].json as Sent).cache_control).to.deep.equal({ type: 'ephemeral' });
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).to.equal(3000);
  });

  it('leaves a request with breakpoints of its own as it is (Anthropic takes 4 at most)', async () => {
    env.upstream.queue({ status: 200, body: basic });
    await env.openai.chat.completions.create({
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'A big document.', cache_control: { type: 'ephemeral' } } as never, { type: 'text', text: 'Summarise it.' }] }],
    });
    const sent = env.upstream.seen[0].json as { cache_control?: unknown; messages: Array<{ content: Array<Sent> }> };
    expect(sent.messages[0].content[0].cache_control).to.deep.equal({ type: 'ephemeral' });
    expect(sent).not.to.have.property('cache_control');
  });

  it('sends the request again without it when an Anthropic-compatible service refuses the field', async () => {
    env.upstream.queue(
      { status: 400, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'cache_control: Extra inputs are not permitted' } }) },
      { status: 200, body: basic },
      { status: 200, body: basic },
    );
    const model = 'claude-compatible-strict-1';
    const first = await env.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] });
    expect(first.choices[0].message.content).to.be.a('string');
    expect(env.upstream.seen.map((seen) => 'cache_control' in (seen.json as Sent))).to.deep.equal([true, false]);
    // Remembered for the model: its next call goes without it at once.
    await env.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'Again' }] });
    expect(env.upstream.seen).to.have.length(3);
    expect(env.upstream.seen[2].json).not.to.have.property('cache_control');
  });

  it('passes a Messages client\'s request through untouched', async () => {
    env.upstream.queue({ status: 200, body: basic });
    const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] });
    await fetch(`${env.gw.url}/claude/v1/messages`, { method: 'POST', headers: { 'x-api-key': TEST_LICENSE, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body });
    expect(env.upstream.seen[0].raw.toString('utf8')).to.equal(body);
  });
});

describe('claude plugin: promptCaching: false', function () {
  this.timeout(20_000);
  const env = useClaudeOnFakeUpstream(['sk-ant-api03-caching-key-0000000000002'], { promptCaching: false });

  it('sends translated requests without automatic caching', async () => {
    env.upstream.queue({ status: 200, body: basic });
    await env.openai.chat.completions.create({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Hi' }] });
    expect(env.upstream.seen[0].json).not.to.have.property('cache_control');
  });
});

describe('withAutomaticCaching', () => {
  it('adds the top-level marker unless a system block, a tool, a message block or a tool result\'s block has one', () => {
    const plain = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
    expect(withAutomaticCaching(plain)).to.deep.equal({ ...plain, cache_control: { type: 'ephemeral' } });
    const marked = { type: 'ephemeral' };
    for (const request of [
      { ...plain, system: [{ type: 'text', text: 's', cache_control: marked }] },
      { ...plain, tools: [{ name: 't', input_schema: {}, cache_control: marked }] },
      { ...plain, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: marked }] }] },
      { ...plain, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: [{ type: 'text', text: 'r', cache_control: marked }] }] }] },
    ]) {
      expect(withAutomaticCaching(request)).to.equal(request);
    }
  });
});

describe('claude plugin: structured output on a model that refuses it', function () {
  this.timeout(20_000);
  const env = useClaudeOnFakeUpstream(['sk-ant-api03-structured-key-0000000001']);

  it('asks for the schema in words in the system prompt, once refused, and at once for that model afterwards', async () => {
    const refusal = { status: 400, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: "Model 'claude-sonnet-4-20250514' does not support structured outputs." } }) };
    const json = JSON.stringify({ ...(JSON.parse(basic.toString('utf8')) as object), content: [{ type: 'text', text: '{"city":"Paris"}' }] });
    env.upstream.queue(refusal, { status: 200, body: json }, { status: 200, body: json });
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const ask = () =>
      env.openai.chat.completions.create({
        model: 'claude-sonnet-4-20250514',
        messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Where is the Louvre?' }],
        response_format: { type: 'json_schema', json_schema: { name: 'place', schema, strict: true } },
      });
    expect((await ask()).choices[0].message.content).to.equal('{"city":"Paris"}');
    const [first, second] = env.upstream.seen.map((seen) => seen.json as { output_config?: unknown; system?: Array<{ text: string }>; cache_control?: unknown });
    expect(first.output_config).to.deep.include({ format: { type: 'json_schema', schema } });
    expect(second).not.to.have.property('output_config');
    expect(second.system?.map((block) => block.text)).to.deep.equal(['Be brief.', `Answer with valid JSON only, with no text before or after it. It must validate against this JSON Schema: ${JSON.stringify(schema)}`]);
    expect(Object.keys(second).at(-1)).to.equal('cache_control');
    await ask();
    expect(env.upstream.seen).to.have.length(3);
    expect(env.upstream.seen[2].json).not.to.have.property('output_config');
  });
});
