import { expect } from 'chai';
import { createResponsesStreamDecoder } from '../../../../core/codecs/responses/create-responses-stream-decoder';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';
import { fixtureText } from '../../../helpers/fixtures';
import { decodeSse } from '../openai-codec-kit';

function decode(body: string, chunkSize = 7): UnifiedStreamEvent[] {
  return decodeSse(createResponsesStreamDecoder(), body, chunkSize);
}

function sse(...events: Array<Record<string, unknown>>): string {
  return events.map((e, i) => `event: ${String(e.type)}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join('');
}

const CREATED = { type: 'response.created', response: { id: 'resp_1', object: 'response', created_at: 9, model: 'gpt-x', status: 'in_progress', output: [], usage: null } };
const COMPLETED = (extra: Record<string, unknown> = {}) => ({
  type: 'response.completed',
  response: { id: 'resp_1', status: 'completed', output: [], usage: { input_tokens: 4, output_tokens: 6, total_tokens: 10, output_tokens_details: { reasoning_tokens: 2 } }, ...extra },
});

describe('createResponsesStreamDecoder', () => {
  for (const chunkSize of [1, 7, 100]) {
    it(`stream-basic (split every ${chunkSize} bytes): start, text deltas, one finish with usage after end()`, () => {
      const events = decode(fixtureText('openai-responses/stream-basic.sse'), chunkSize);
      expect(events[0]).to.deep.equal({ type: 'start', id: 'resp_68c7a1f0b2d48193a6f1c2e3d4b5a6970c1d2e3f4a5b6c7d', model: 'gpt-4.1-mini-2025-04-14', created: 1757935300 });
      expect(events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('')).to.equal('Hello, nice to meet you!');
      expect(events.filter((e) => e.type === 'text_delta')).to.have.length(7);
      expect(events.at(-1)).to.deep.equal({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 21, outputTokens: 8, totalTokens: 29, cachedInputTokens: 0, reasoningTokens: 0 } });
    });
  }

  it('stream-function-call: one tool call with the call_id, the name from output_item.added and joined arguments', () => {
    const events = decode(fixtureText('openai-responses/stream-function-call.sse'), 11);
    expect(events.filter((e) => e.type === 'tool_call_start')).to.deep.equal([{ type: 'tool_call_start', index: 0, id: 'call_Qm4nZ8xV2bT6yH0kL3pR7sWd', name: 'get_weather' }]);
    expect(events.map((e) => (e.type === 'tool_call_delta' ? e.argumentsDelta : '')).join('')).to.equal('{"city":"Paris","unit":"celsius"}');
    const finish = events.at(-1);
    expect(finish?.type === 'finish' && finish.finishReason).to.equal('tool_calls');
  });

  it('stream-error: the error event becomes one error event carrying code and message', () => {
    const events = decode(fixtureText('openai-responses/stream-error.sse'));
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'error']);
    const error = events[1].type === 'error' ? events[1].error : undefined;
    expect(error?.code).to.equal('GW_UPSTREAM_ERROR');
    expect(error?.status).to.equal(500);
    expect(error?.upstreamCode).to.equal('server_error');
    expect(error?.message).to.equal('The server had an error while processing your request. Sorry about that!');
  });

  it('reads reasoning summary deltas (paragraphs joined), then the encrypted content as the block signature', () => {
    const events = decode(
      sse(
        CREATED,
        { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
        { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, delta: 'one' },
        { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 1, delta: 'two' },
        { type: 'response.output_item.done', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'one' }, { type: 'summary_text', text: 'two' }], encrypted_content: 'ENC' } },
        { type: 'response.output_item.added', output_index: 1, item: { id: 'rs_2', type: 'reasoning', summary: [] } },
        { type: 'response.output_item.done', output_index: 1, item: { id: 'rs_2', type: 'reasoning', summary: [], encrypted_content: 'ENC2' } },
        COMPLETED(),
      ),
    );
    expect(events.slice(1, -2)).to.deep.equal([
      { type: 'reasoning_delta', text: 'one' },
      { type: 'reasoning_delta', text: '\n\ntwo' },
      { type: 'reasoning_signature', signature: 'ENC', provider: 'responses' },
      { type: 'redacted_reasoning', data: 'ENC2', provider: 'responses' },
    ]);
    expect(events.at(-1)).to.deep.equal({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 4, outputTokens: 6, totalTokens: 10, reasoningTokens: 2 } });
  });

  it('takes text and arguments from .done events when no deltas came', () => {
    const events = decode(
      sse(
        CREATED,
        { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', content: [] } },
        { type: 'response.output_item.done', output_index: 0, item: { id: 'msg_1', type: 'message', content: [{ type: 'output_text', text: 'whole' }] } },
        { type: 'response.output_item.added', output_index: 1, item: { id: 'fc_1', type: 'function_call', call_id: 'c1', name: 'f', arguments: '' } },
        { type: 'response.function_call_arguments.delta', output_index: 1, delta: '{"a"' },
        { type: 'response.function_call_arguments.done', output_index: 1, arguments: '{"a":1}' },
        { type: 'response.output_item.done', output_index: 1, item: { id: 'fc_1', type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"a":1}' } },
        COMPLETED(),
      ),
    );
    expect(events.slice(1, -2)).to.deep.equal([
      { type: 'text_delta', text: 'whole' },
      { type: 'tool_call_start', index: 0, id: 'c1', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a"' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: ':1}' },
    ]);
  });

  it('maps response.incomplete to length and response.failed to an upstream error', () => {
    const incomplete = decode(sse(CREATED, { type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage: null } }));
    const last = incomplete.at(-1);
    expect(last?.type === 'finish' && last.finishReason).to.equal('length');
    const failed = decode(sse(CREATED, { type: 'response.failed', response: { status: 'failed', error: { code: 'rate_limit_exceeded', message: 'slow down' } } }));
    const error = failed.at(-1);
    expect(error?.type === 'error' && [error.error.status, error.error.message]).to.deep.equal([429, 'slow down']);
  });

  it('reports a stream that ends before response.completed as GW_UPSTREAM_BAD_RESPONSE', () => {
    const events = decode(sse(CREATED, { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'x' }));
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
  });
});
