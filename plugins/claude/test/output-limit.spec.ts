import { expect } from 'chai';
import { useClaudeOnFakeUpstream, type SeenRequest } from './helpers/fake-upstream';
import { messagesAnswer } from './helpers/messages-stream';

const KEY = 'sk-ant-api03-output-limit-key-000000001';
const CAP = 64000;

/** Anthropic's 400 for a max_tokens above the model's cap, as the API words it. */
const refuseAboveCap = (request: SeenRequest) => {
  const asked = (request.json as { max_tokens: number }).max_tokens;
  if (asked <= CAP) return undefined;
  const message = `max_tokens: ${asked} > ${CAP}, which is the maximum allowed number of output tokens for claude-sonnet-4-5-20250929`;
  return { status: 400, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message }, request_id: 'req_cap' }) };
};
const limitsOf = (seen: SeenRequest[]) => seen.map((request) => (request.json as { max_tokens: number }).max_tokens);

describe('claude plugin: an output limit above the model cap, asked by a translated client', function () {
  this.timeout(20_000);
  const env = useClaudeOnFakeUpstream([KEY]);

  it("is asked again at the cap Anthropic's 400 states, and at that cap from the start for the model's later calls", async () => {
    const answer = { status: 200, body: JSON.stringify(messagesAnswer('msg_1', [{ type: 'text', text: 'done' }], 'end_turn')) };
    env.upstream.fallback((request) => refuseAboveCap(request) ?? answer);
    const ask = () => env.openai.chat.completions.create({ model: 'claude-sonnet-4-5', max_tokens: 100000, messages: [{ role: 'user', content: 'hi' }] });
    expect((await ask()).choices[0].message.content).to.equal('done');
    expect(limitsOf(env.upstream.seen)).to.deep.equal([100000, CAP]);
    await ask();
    expect(limitsOf(env.upstream.seen)).to.deep.equal([100000, CAP, CAP]);
    // Another model has its own cap, if any.
    await env.openai.chat.completions.create({ model: 'claude-haiku-4-5', max_tokens: 50000, messages: [{ role: 'user', content: 'hi' }] });
    expect(limitsOf(env.upstream.seen).at(-1)).to.equal(50000);
  });

  it('a turn that pauses after the lowered call is continued within the cap', async () => {
    const round1 = [
      { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'node lts' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [{ type: 'web_search_result', url: 'https://example.com', title: 'Node', encrypted_content: 'Eq', page_age: null }] },
    ];
    const paused = { status: 200, body: JSON.stringify(messagesAnswer('msg_2', round1, 'pause_turn')) };
    const done = { status: 200, body: JSON.stringify(messagesAnswer('msg_3', [{ type: 'text', text: 'Node 22.' }], 'end_turn')) };
    env.upstream.queue((request) => refuseAboveCap(request) ?? paused, paused, done);
    const completion = await env.openai.chat.completions.create({ model: 'claude-opus-4-5', max_tokens: 120000, messages: [{ role: 'user', content: 'Which Node is LTS?' }], web_search_options: {} });
    expect(completion.choices[0].message.content).to.equal('Node 22.');
    expect(limitsOf(env.upstream.seen)).to.deep.equal([120000, CAP, CAP]);
    const last = env.upstream.seen[2].json as { messages: Array<{ role: string; content: unknown }> };
    expect(last.messages.at(-1)).to.deep.equal({ role: 'assistant', content: round1 });

    // The model's cap is known now: the next turn goes at it from the start, and so do its continuations.
    env.upstream.queue(paused, done);
    await env.openai.chat.completions.create({ model: 'claude-opus-4-5', max_tokens: 120000, messages: [{ role: 'user', content: 'And Deno?' }], web_search_options: {} });
    expect(limitsOf(env.upstream.seen)).to.deep.equal([120000, CAP, CAP, CAP, CAP]);
  });

  it("a continuation refused for the room its larger input leaves is asked again within that room, once", async () => {
    const round1 = [
      { type: 'server_tool_use', id: 'srvtoolu_02', name: 'web_search', input: { query: 'deno' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_02', content: [{ type: 'web_search_result', url: 'https://example.com/deno', title: 'Deno', encrypted_content: 'Eq', page_age: null }] },
    ];
    const paused = { status: 200, body: JSON.stringify(messagesAnswer('msg_4', round1, 'pause_turn')) };
    const done = { status: 200, body: JSON.stringify(messagesAnswer('msg_5', [{ type: 'text', text: 'Deno 2.' }], 'end_turn')) };
    const room = (request: SeenRequest) => {
      const asked = (request.json as { max_tokens: number }).max_tokens;
      if (asked <= 10000) return done;
      const message = `input length and \`max_tokens\` exceed context limit: 190000 + ${asked} > 200000, decrease input length or \`max_tokens\` and try again`;
      return { status: 400, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }) };
    };
    env.upstream.queue(paused, room, room);
    const completion = await env.openai.chat.completions.create({ model: 'claude-haiku-4-5', max_tokens: 20000, messages: [{ role: 'user', content: 'Which Deno?' }], web_search_options: {} });
    expect(completion.choices[0].message.content).to.equal('Deno 2.');
    expect(limitsOf(env.upstream.seen)).to.deep.equal([20000, 20000, 10000]);
  });
});
