import { expect } from 'chai';
import { createChatCompletionsStreamDecoder } from '../../../../core/codecs/chat-completions/create-chat-completions-stream-decoder';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';
import { fixtureText } from '../../../helpers/fixtures';
import { decodeSse } from '../openai-codec-kit';

function decode(body: string, chunkSize = 7): UnifiedStreamEvent[] {
  return decodeSse(createChatCompletionsStreamDecoder(), body, chunkSize);
}

function sse(...chunks: unknown[]): string {
  return chunks.map((c) => `data: ${typeof c === 'string' ? c : JSON.stringify(c)}\n\n`).join('');
}

function chunk(delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 5, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...extra };
}

function text(events: UnifiedStreamEvent[]): string {
  return events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
}

describe('createChatCompletionsStreamDecoder', () => {
  it('ends a stream whose finish says tool_calls with no call as a natural end (stop)', () => {
    const events = decode(sse(chunk({ role: 'assistant', content: 'no call after all' }), chunk({}, 'tool_calls'), '[DONE]'));
    const finish = events.find((event) => event.type === 'finish');
    expect(finish?.type === 'finish' && finish.finishReason).to.equal('stop');
  });

  for (const chunkSize of [1, 7, 64, 10000]) {
    it(`stream-basic (split every ${chunkSize} bytes): start, text, usage from the trailing chunk, one finish at the end`, () => {
      const events = decode(fixtureText('openai-chat/stream-basic.sse'), chunkSize);
      expect(events[0]).to.deep.equal({ type: 'start', id: 'chatcmpl-CGk7sV9pQ2wRt5yUi8oPa1sDf4gHj', model: 'gpt-4.1-mini-2025-04-14', created: 1757935201 });
      expect(text(events)).to.equal('Hello, nice to meet you!');
      expect(events.filter((e) => e.type === 'finish')).to.have.length(1);
      expect(events.at(-1)).to.deep.equal({
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 24, outputTokens: 8, totalTokens: 32, cachedInputTokens: 0, reasoningTokens: 0 },
      });
    });
  }

  it('stream-tool-calls: tool calls joined on index, id and name from the first fragment only', () => {
    const events = decode(fixtureText('openai-chat/stream-tool-calls.sse'), 5);
    const starts = events.filter((e) => e.type === 'tool_call_start');
    expect(starts).to.deep.equal([
      { type: 'tool_call_start', index: 0, id: 'call_Xy8mQ2vR6tLp0sWn4kJd9aBc', name: 'get_weather' },
      { type: 'tool_call_start', index: 1, id: 'call_Hf3nK7pQ1zVx5mRt8yLw2eGu', name: 'get_weather' },
    ]);
    const args = (index: number) => events.map((e) => (e.type === 'tool_call_delta' && e.index === index ? e.argumentsDelta : '')).join('');
    expect(args(0)).to.equal('{"city":"Paris","unit":"celsius"}');
    expect(args(1)).to.equal('{"city":"Tokyo","unit":"celsius"}');
    const finish = events.at(-1);
    expect(finish?.type === 'finish' && finish.finishReason).to.equal('tool_calls');
    // No usage chunk in this stream: usage is zero, never missing.
    expect(finish?.type === 'finish' && finish.usage).to.deep.equal({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it('stream-error: the mid-stream error envelope becomes one error event and nothing follows', () => {
    const events = decode(fixtureText('openai-chat/stream-error.sse'), 9);
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'text_delta', 'error']);
    const error = events[2].type === 'error' ? events[2].error : undefined;
    expect(error?.code).to.equal('GW_UPSTREAM_ERROR');
    expect(error?.status).to.equal(500);
    expect(error?.upstreamType).to.equal('server_error');
    expect(error?.message).to.equal('The server had an error while processing your request. Sorry about that!');
  });

  it('reads reasoning_content and reasoning deltas as reasoning', () => {
    const events = decode(sse(chunk({ role: 'assistant', content: '' }), chunk({ reasoning_content: 'a' }), chunk({ reasoning: 'b' }), chunk({ content: 'c' }), chunk({}, 'stop'), '[DONE]'));
    expect(events.filter((e) => e.type !== 'start' && e.type !== 'finish')).to.deep.equal([
      { type: 'reasoning_delta', text: 'a' },
      { type: 'reasoning_delta', text: 'b' },
      { type: 'text_delta', text: 'c' },
    ]);
  });

  it('numbers tool calls from 0 even when the upstream starts elsewhere, and splits calls that reuse an index with a new id', () => {
    const events = decode(
      sse(
        chunk({ tool_calls: [{ index: 3, id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
        chunk({ tool_calls: [{ index: 3, id: 'b', type: 'function', function: { name: 'g', arguments: '{"x"' } }] }),
        chunk({ tool_calls: [{ index: 3, function: { arguments: ':1}' } }] }),
        chunk({}, 'stop'),
        '[DONE]',
      ),
    );
    expect(events.filter((e) => e.type.startsWith('tool_call'))).to.deep.equal([
      { type: 'tool_call_start', index: 0, id: 'a', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool_call_start', index: 1, id: 'b', name: 'g' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"x"' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: ':1}' },
    ]);
    const finish = events.at(-1);
    expect(finish?.type === 'finish' && finish.finishReason).to.equal('tool_calls');
  });

  it('gives a call or an answer the upstream sent without an id (or with "") an id of its own, never the same one twice', () => {
    // Azure opens with an empty-id chunk; some services send calls without ids. Clients pair results by these ids.
    const body = () =>
      sse(
        { id: '', object: 'chat.completion.chunk', created: 0, model: '', choices: [], prompt_filter_results: [] },
        chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } }] }, null, { id: 'chatcmpl-later' }),
        chunk({ tool_calls: [{ index: 1, id: '', type: 'function', function: { name: 'Bash', arguments: '{}' } }] }, 'tool_calls', { id: 'chatcmpl-later' }),
      ) + 'data: [DONE]\n\n';
    const runs = [decode(body()), decode(body())];
    // The answer starts with the chunk after Azure's prompt-filter one: its id is the answer's.
    expect(runs.map((events) => events.find((e) => e.type === 'start'))).to.deep.equal([0, 1].map(() => ({ type: 'start', id: 'chatcmpl-later', model: 'm', created: 5 })));
    const ids = runs.flatMap((events) => events.flatMap((e) => (e.type === 'tool_call_start' ? [e.id] : [])));
    expect(ids).to.have.length(4);
    expect(new Set(ids).size).to.equal(4);
    for (const id of ids) expect(id).to.match(/^call_[0-9a-f]{24}$/);
  });

  it('gives calls of one answer that share an id (a service numbering calls per answer) ids of their own', () => {
    const body =
      sse(
        chunk({ tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'Read', arguments: '{}' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_0', type: 'function', function: { name: 'Grep', arguments: '{}' } }] }, 'tool_calls'),
      ) + 'data: [DONE]\n\n';
    const starts = decode(body).flatMap((e) => (e.type === 'tool_call_start' ? [[e.id, e.name]] : []));
    expect(starts).to.deep.equal([['call_0', 'Read'], ['call_0_2', 'Grep']]);
  });

  it('gives an answer whose first chunk has no id (or "") an id of its own, never the same one twice', () => {
    const body = () => sse(chunk({ content: 'x' }, 'stop', { id: '' })) + 'data: [DONE]\n\n';
    const starts = [decode(body()), decode(body())].map((events) => events.find((e) => e.type === 'start'));
    const ids = starts.map((start) => (start?.type === 'start' ? start.id : ''));
    expect(new Set(ids).size).to.equal(2);
    for (const id of ids) expect(id).to.match(/^chatcmpl-[0-9a-f]{24}$/);
  });

  it('accepts empty choices, usage: null and a usage chunk after the finish chunk', () => {
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
    const events = decode(sse(chunk({ content: 'x' }, null, { usage: null }), chunk({}, 'length', { usage: null }), { id: 'chatcmpl-1', choices: [], usage }, '[DONE]'));
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'text_delta', 'usage', 'finish']);
    expect(events.at(-1)).to.deep.equal({ type: 'finish', finishReason: 'length', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } });
  });

  it('finishes at [DONE], before the body ends (an upstream may hold the connection open after it)', () => {
    const decoder = createChatCompletionsStreamDecoder();
    decoder.push({ data: JSON.stringify(chunk({ content: 'x' }, 'stop')) });
    expect(decoder.push({ data: '[DONE]' }).map((e) => e.type)).to.deep.equal(['finish']);
    expect(decoder.end()).to.deep.equal([]);
  });

  it('takes an error given as a string (then [DONE]) as the error it is, not a clean stop', () => {
    const events = decode(sse(chunk({ content: 'The answer is 4' }), { error: 'Upstream provider error: context window exceeded' }, '[DONE]'));
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'text_delta', 'error']);
    const last = events.at(-1);
    expect(last?.type === 'error' && [last.error.code, last.error.message]).to.deep.equal(['GW_UPSTREAM_ERROR', 'Upstream provider error: context window exceeded']);
  });

  it('reports a stream cut before any finish_reason or [DONE] as an error', () => {
    const events = decode(sse(chunk({ content: 'x' })));
    expect(events.at(-1)?.type).to.equal('error');
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
  });

  it('reports a non-JSON event as GW_UPSTREAM_BAD_RESPONSE and ignores what follows', () => {
    const decoder = createChatCompletionsStreamDecoder();
    const events = [...decoder.push({ data: '{oops' }), ...decoder.push({ data: JSON.stringify(chunk({ content: 'x' })) }), ...decoder.end()];
    expect(events).to.have.length(1);
    expect(events[0].type === 'error' && events[0].error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
  });
});
