import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { createGeminiStreamDecoder } from '../../../../core/codecs/gemini/create-gemini-stream-decoder';
import { createGeminiStreamEncoder } from '../../../../core/codecs/gemini/create-gemini-stream-encoder';
import { GatewayError } from '../../../../core/errors/gateway-error';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';
import { FIXTURES_DIR } from '../../../helpers/fixtures';
import { stepsUntilThrown } from '../../../helpers/rejection';

const FIXTURES = FIXTURES_DIR + '/gemini';
// Thoughts asked for, as Gemini CLI does; without it a Gemini client gets none (see showsThoughts).
const REQUEST: UnifiedRequest = { model: 'gemini-2.5-flash', system: [], messages: [], stream: true, reasoning: { includeThoughts: true } };

function encodeAll(events: UnifiedStreamEvent[], request = REQUEST): Array<Record<string, unknown>> {
  const encoder = createGeminiStreamEncoder(request);
  return events.flatMap((e) => encoder.push(e)).map((w) => {
    expect(w.event, 'no SSE event names').to.equal(undefined);
    return JSON.parse(w.data) as Record<string, unknown>;
  });
}

function parts(body: Record<string, unknown>): unknown {
  return (body as { candidates: Array<{ content: { parts: unknown } }> }).candidates[0].content.parts;
}

const START: UnifiedStreamEvent = { type: 'start', id: 'resp-1', model: 'gemini-x', created: 0 };
const FINISH: UnifiedStreamEvent = { type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 8, totalTokens: 11, reasoningTokens: 2 } };

describe('createGeminiStreamEncoder', () => {
  it('sends buffered calls at the first other event once every one is whole, a call started again at its index included', () => {
    const partsOf = (chunks: Array<Record<string, unknown>>) => chunks.map((chunk) => parts(chunk));
    // Started again at index 0 (a call whose first start carried nothing): only the second counts.
    const restarted = encodeAll([
      START,
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"x":' },
      { type: 'tool_call_start', index: 0, id: 'call_b', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"y":1}' },
      { type: 'text_delta', text: 'after' },
    ]);
    expect(partsOf(restarted)).to.deep.equal([[{ functionCall: { id: 'call_b', name: 'f', args: { y: 1 } } }], [{ text: 'after' }]]);
    // Whole, then not (text after its close): it waits again, and the text with it goes before it.
    const reopened = encodeAll([
      START,
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"x":1}' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: ' trailing' },
      { type: 'text_delta', text: 'between' },
    ]);
    expect(partsOf(reopened)).to.deep.equal([[{ text: 'between' }]]);
  });

  it('fails an answer whose calls, each under the event bound and none ever whole, add up past 64 MB (they were held without end)', () => {
    const encoder = createGeminiStreamEncoder(REQUEST);
    encoder.push(START);
    const chunk = 'a'.repeat(8 * 1024 * 1024);
    const { steps, thrown } = stepsUntilThrown((index) => {
      encoder.push({ type: 'tool_call_start', index, id: `call_${index}`, name: 'f' });
      encoder.push({ type: 'tool_call_delta', index, argumentsDelta: `{"a":"${chunk}` });
    });
    // The eighth call's arguments (8 MB and their `{"a":"`) pass 64 MB.
    expect(steps).to.equal(7);
    expect((thrown as Error).message).to.equal('upstream answer held for tool calls and citations exceeds 64 MB');
  });

  it('re-encodes the decoded stream fixture chunk for chunk', () => {
    const decoder = createGeminiStreamDecoder();
    const fixture = JSON.parse(readFileSync(`${FIXTURES}/stream-array.json`, 'utf8')) as Array<Record<string, unknown>>;
    const unified = [...fixture.flatMap((c) => decoder.push({ data: JSON.stringify(c) })), ...decoder.end()];
    const encoded = encodeAll(unified);
    const texts = encoded.map((c) => parts(c));
    // The finish reason rides on an empty text part: the SDK's chat drops a turn with a chunk of no parts.
    expect(texts).to.deep.equal([[{ text: 'Hello, nice' }], [{ text: ' to meet you!' }], [{ text: '' }]]);
    const last = encoded.at(-1) as { candidates: Array<{ finishReason: string }>; usageMetadata: unknown; responseId: string; modelVersion: string };
    expect(last.candidates[0].finishReason).to.equal('STOP');
    expect(last.usageMetadata).to.deep.equal({ promptTokenCount: 13, candidatesTokenCount: 7, totalTokenCount: 64, thoughtsTokenCount: 44 });
    expect([last.responseId, last.modelVersion]).to.deep.equal(['oNc2aLr5EZ-mz7IP0ZTN2Qk', 'gemini-2.5-flash']);
  });

  it('sends one chunk per text or thought delta, with usage once known', () => {
    const chunks = encodeAll([
      START,
      { type: 'reasoning_delta', text: 'hmm' },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } },
      { type: 'text_delta', text: 'Hi' },
      { type: 'text_delta', text: '' },
      FINISH,
    ]);
    expect(chunks).to.deep.equal([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'hmm', thought: true }] }, index: 0 }], modelVersion: 'gemini-x', responseId: 'resp-1' },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, index: 0 }],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 },
        modelVersion: 'gemini-x',
        responseId: 'resp-1',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 6, totalTokenCount: 11, thoughtsTokenCount: 2 },
        modelVersion: 'gemini-x',
        responseId: 'resp-1',
      },
    ]);
  });

  it('buffers streamed tool calls (even interleaved) and sends each whole as one functionCall part', () => {
    const chunks = encodeAll([
      START,
      { type: 'text_delta', text: 'Let me check.' },
      { type: 'tool_call_start', index: 0, id: 'call_abc', name: 'get_weather' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool_call_start', index: 1, id: 'call_def', name: 'get_time', signature: 'sig' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"Paris"}' },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 5, totalTokens: 8 } },
      { ...FINISH, finishReason: 'tool_calls' },
    ]);
    // As Gemini ends a call turn: the calls, the finish reason and the final usage in one last chunk.
    expect(chunks.map(parts)).to.deep.equal([
      [{ text: 'Let me check.' }],
      [
        { functionCall: { id: 'call_abc', name: 'get_weather', args: { city: 'Paris' } } },
        { functionCall: { id: 'call_def', name: 'get_time', args: {} }, thoughtSignature: 'sig' },
      ],
    ]);
    const last = chunks.at(-1) as { candidates: Array<{ finishReason: string }>; usageMetadata: unknown };
    expect(last.candidates[0].finishReason).to.equal('STOP');
    expect(last.usageMetadata).to.deep.equal({ promptTokenCount: 3, candidatesTokenCount: 6, totalTokenCount: 11, thoughtsTokenCount: 2 });
  });

  it('leaves out a call whose arguments were cut short and ends the turn MALFORMED_FUNCTION_CALL, never handing back half a call', () => {
    const chunks = encodeAll([
      START,
      { type: 'tool_call_start', index: 0, id: 'toolu_T', name: 'write' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"path":"a.txt","content":"hello wor' },
      { type: 'finish', finishReason: 'length', usage: FINISH.usage },
    ]);
    expect(chunks.map(parts)).to.deep.equal([[{ text: '' }]]);
    expect((chunks[0] as { candidates: Array<{ finishReason: string }> }).candidates[0].finishReason).to.equal('MALFORMED_FUNCTION_CALL');
  });

  it('sends buffered calls as soon as an event of another kind arrives', () => {
    const chunks = encodeAll([
      START,
      { type: 'tool_call_start', index: 0, id: 'call_abc', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'text_delta', text: 'after' },
      FINISH,
    ]);
    expect(chunks.map(parts)).to.deep.equal([[{ functionCall: { id: 'call_abc', name: 'f', args: { a: 1 } } }], [{ text: 'after' }], [{ text: '' }]]);
  });

  it('keeps a call whose arguments are not whole yet across text between its deltas, and sends it whole', () => {
    const chunks = encodeAll([
      START,
      { type: 'tool_call_start', index: 0, id: 'call_A', name: 'get_weather' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'text_delta', text: '\n' },
      { type: 'reasoning_delta', text: 'hm' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"Rome"}' },
      { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 3, outputTokens: 8, totalTokens: 11 } },
    ]);
    expect(chunks.map(parts)).to.deep.equal([[{ text: '\n' }], [{ text: 'hm', thought: true }], [{ functionCall: { id: 'call_A', name: 'get_weather', args: { city: 'Rome' } } }]]);
    expect(chunks.at(-1)).to.have.nested.property('candidates[0].finishReason', 'STOP');
  });

  it('puts a reasoning signature on the next part, or on an empty text part at the end', () => {
    const chunks = encodeAll([
      START,
      { type: 'reasoning_delta', text: 'a' },
      { type: 'reasoning_signature', signature: 's1', provider: 'gemini' },
      { type: 'text_delta', text: 'b' },
      { type: 'reasoning_signature', signature: 's2', provider: 'gemini' },
      FINISH,
    ]);
    expect(chunks.map(parts)).to.deep.equal([[{ text: 'a', thought: true }], [{ text: 'b', thoughtSignature: 's1' }], [{ text: '', thoughtSignature: 's2' }]]);
  });

  it("gives no other provider's signature (Claude's) as a thoughtSignature, as a whole answer does not", () => {
    const chunks = encodeAll([START, { type: 'reasoning_signature', signature: 'EqQBclaude', provider: 'messages' }, { type: 'text_delta', text: 'Hello' }, FINISH]);
    expect(chunks.map(parts).slice(0, -1)).to.deep.equal([[{ text: 'Hello' }]]);
  });

  it('hides thoughts when the client switched them off and sends media inline', () => {
    const chunks = encodeAll(
      [START, { type: 'reasoning_delta', text: 'secret' }, { type: 'media', mediaType: 'image/png', data: 'AAAA' }, { type: 'redacted_reasoning', data: 'x' }, FINISH],
      { ...REQUEST, reasoning: { includeThoughts: false } },
    );
    expect(chunks.map(parts)).to.deep.equal([[{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }], [{ text: '' }]]);
  });

  it('sends no thoughts unless the client asked (Gemini defaults includeThoughts to false) or chose a -thinking variant', () => {
    const events: UnifiedStreamEvent[] = [START, { type: 'reasoning_delta', text: 'secret' }, { type: 'text_delta', text: 'answer' }, FINISH];
    const unasked = encodeAll(events, { ...REQUEST, reasoning: { enabled: true, budgetTokens: 2048 } });
    expect(unasked.map(parts)).to.deep.equal([[{ text: 'answer' }], [{ text: '' }]]);
    const variant = encodeAll(events, { ...REQUEST, model: 'claude-sonnet-4-5-thinking', reasoning: undefined });
    expect(variant.map(parts)).to.deep.equal([[{ text: 'secret', thought: true }], [{ text: 'answer' }], [{ text: '' }]]);
  });

  it('ends with the Gemini error envelope on error, drops an unfinished call, and sends nothing after', () => {
    const encoder = createGeminiStreamEncoder(REQUEST);
    const out = [
      START,
      { type: 'tool_call_start', index: 0, id: 'c', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a"' },
      { type: 'error', error: new GatewayError('GW_UPSTREAM_OVERLOADED', 'Overloaded', { upstreamType: 'overloaded_error' }) },
      { type: 'text_delta', text: 'late' },
    ].flatMap((e) => encoder.push(e as UnifiedStreamEvent));
    expect(out).to.have.length(1);
    expect(JSON.parse(out[0].data)).to.deep.equal({ error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } });
  });
});
