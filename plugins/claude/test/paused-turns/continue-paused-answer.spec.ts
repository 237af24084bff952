import { expect } from 'chai';
import { continuationOf, continuePausedAnswer, isPausedTurn, MAX_CONTINUATIONS } from '../../src/paused-turns/continue-paused-answer';

const REQUEST = { model: 'claude-sonnet-4-6', max_tokens: 1000, messages: [{ role: 'user', content: 'Search it.' }], tools: [{ type: 'web_search_20250305', name: 'web_search' }] };
const search = (id: string): Array<Record<string, unknown>> => [
  { type: 'server_tool_use', id, name: 'web_search', input: { query: id } },
  { type: 'web_search_tool_result', tool_use_id: id, content: [] },
];
const answer = (content: unknown[], stopReason: string, usage: Record<string, unknown>): Record<string, unknown> => ({ id: 'msg', type: 'message', role: 'assistant', content, stop_reason: stopReason, usage });

describe('continuePausedAnswer', () => {
  it('sends the turn so far back as the assistant\'s until it is not paused; the answer holds every call\'s blocks and usage', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const replies = [answer(search('s2'), 'pause_turn', { input_tokens: 200, output_tokens: 20, server_tool_use: { web_search_requests: 1 } }), answer([{ type: 'text', text: 'Done.' }], 'end_turn', { input_tokens: 300, output_tokens: 30 })];
    const first = answer(search('s1'), 'pause_turn', { input_tokens: 100, output_tokens: 10, server_tool_use: { web_search_requests: 1 } });
    const result = await continuePausedAnswer(REQUEST, first, async (request) => {
      sent.push(request);
      return replies.shift();
    });
    expect(sent).to.have.length(2);
    expect(sent[0].messages).to.deep.equal([...REQUEST.messages, { role: 'assistant', content: search('s1') }]);
    expect(sent[1].messages).to.deep.equal([...REQUEST.messages, { role: 'assistant', content: [...search('s1'), ...search('s2')] }]);
    expect(sent[1].tools).to.deep.equal(REQUEST.tools);
    expect(result).to.deep.equal(answer([...search('s1'), ...search('s2'), { type: 'text', text: 'Done.' }], 'end_turn', { input_tokens: 600, output_tokens: 60, server_tool_use: { web_search_requests: 2 } }));
  });

  it('answers an unpaused answer as it is, without a call', async () => {
    const first = answer([{ type: 'text', text: 'Hi' }], 'end_turn', { input_tokens: 1, output_tokens: 1 });
    expect(await continuePausedAnswer(REQUEST, first, () => Promise.reject(new Error('no call expected')))).to.equal(first);
  });

  it(`stops after ${MAX_CONTINUATIONS} continuations, answering the last call's pause`, async () => {
    let calls = 0;
    const result = (await continuePausedAnswer(REQUEST, answer(search('s0'), 'pause_turn', {}), async () => {
      calls += 1;
      return answer(search(`s${calls}`), 'pause_turn', {});
    })) as { content: unknown[]; stop_reason: string };
    expect(calls).to.equal(MAX_CONTINUATIONS);
    expect(result.stop_reason).to.equal('pause_turn');
    expect(result.content).to.have.length(2 * (MAX_CONTINUATIONS + 1));
  });

  it('continuationOf keeps the request and adds the turn; isPausedTurn wants the stop reason and a content list', () => {
    const next = continuationOf(REQUEST, [{ type: 'text', text: 'a' }]);
    expect(next).to.deep.equal({ ...REQUEST, messages: [...REQUEST.messages, { role: 'assistant', content: [{ type: 'text', text: 'a' }] }] });
    expect(REQUEST.messages).to.have.length(1);
    expect(isPausedTurn({ stop_reason: 'pause_turn', content: [] })).to.equal(true);
    expect(isPausedTurn({ stop_reason: 'pause_turn' })).to.equal(false);
    expect(isPausedTurn({ stop_reason: 'end_turn', content: [] })).to.equal(false);
  });

  it('continues in the code execution container the paused call ran in', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const paused = { ...answer(search('s1'), 'pause_turn', {}), container: { id: 'container_011', expires_at: '2026-11-29T06:00:00Z' } };
    await continuePausedAnswer(REQUEST, paused, async (request) => {
      sent.push(request);
      return answer([], 'end_turn', {});
    });
    expect(sent[0].container).to.equal('container_011');
    expect(continuationOf({ ...REQUEST, container: 'mine' }, [], 'container_011').container).to.equal('mine');
    expect(continuationOf(REQUEST, [])).not.to.have.property('container');
  });
});
