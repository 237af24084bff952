import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { createGeminiStreamDecoder } from '../../../../core/codecs/gemini/create-gemini-stream-decoder';
import { createMessagesStreamEncoder } from '../../../../core/codecs/messages/create-messages-stream-encoder';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import { createJsonArrayParser } from '../../../../core/sse/parse-json-array';
import { createSseParser } from '../../../../core/sse/parse-sse';
import type { WireEvent } from '../../../../core/sse/wire-event';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';
import { FIXTURES_DIR } from '../../../helpers/fixtures';

const FIXTURES = FIXTURES_DIR + '/gemini';

/** Decodes a whole stream; `start.created` (the decoding time: Gemini sends none) is checked, then zeroed. */
function decodeAll(events: WireEvent[]): UnifiedStreamEvent[] {
  const before = Math.floor(Date.now() / 1000);
  const decoder = createGeminiStreamDecoder();
  const out = [...events.flatMap((e) => decoder.push(e)), ...decoder.end()];
  return out.map((e) => {
    if (e.type !== 'start') return e;
    expect(e.created).to.be.within(before, Math.floor(Date.now() / 1000));
    return { ...e, created: 0 };
  });
}

/** Feeds the raw body through a framing parser in pieces of `size` bytes, as the network would. */
function frame(raw: Buffer, size: number, parser: { push(c: Buffer): WireEvent[]; end(): WireEvent[] }): WireEvent[] {
  const out: WireEvent[] = [];
  for (let i = 0; i < raw.length; i += size) out.push(...parser.push(raw.subarray(i, i + size)));
  out.push(...parser.end());
  return out;
}

function chunk(body: Record<string, unknown>): WireEvent {
  return { data: JSON.stringify(body) };
}

function candidate(parts: unknown[], finishReason?: string): Record<string, unknown> {
  return { candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 }] };
}

const EXPECTED_BASIC: UnifiedStreamEvent[] = [
  { type: 'start', id: 'oNc2aLr5EZ-mz7IP0ZTN2Qk', model: 'gemini-2.5-flash', created: 0, usage: { inputTokens: 13 } },
  { type: 'text_delta', text: 'Hello, nice' },
  { type: 'usage', usage: { inputTokens: 13, outputTokens: 47, totalTokens: 60, reasoningTokens: 44 } },
  { type: 'text_delta', text: ' to meet you!' },
  { type: 'usage', usage: { inputTokens: 13, outputTokens: 51, totalTokens: 64, reasoningTokens: 44 } },
  { type: 'finish', finishReason: 'stop', usage: { inputTokens: 13, outputTokens: 51, totalTokens: 64, reasoningTokens: 44 } },
];

describe('createGeminiStreamDecoder', () => {
  it("reads grounding offsets in the answer's first 4 MB of text only: a citation past them is left out (the text is not kept whole)", () => {
    const megabyte = 'a'.repeat(1024 * 1024);
    const events: WireEvent[] = Array.from({ length: 5 }, () => chunk(candidate([{ text: megabyte }])));
    const span = (from: number) => ({ segment: { startIndex: from, endIndex: from + 10 }, groundingChunkIndices: [0] });
    events.push(chunk({ candidates: [{ content: { role: 'model', parts: [{ text: '.' }] }, finishReason: 'STOP', index: 0, groundingMetadata: { groundingChunks: [{ web: { uri: 'https://example.com/a', title: 'a' } }], groundingSupports: [span(100), span(4.5 * 1024 * 1024)] } }] }));
    const citations = decodeAll(events).flatMap((event) => (event.type === 'citations' ? event.citations : []));
    expect(citations.map((citation) => [citation.start, citation.end])).to.deep.equal([[100, 110]]);
  });

  describe('golden: stream fixtures split at arbitrary byte boundaries', () => {
    for (const size of [1, 3, 7, 64, 100000]) {
      it(`decodes stream-basic.sse (CRLF) in ${size}-byte pieces`, () => {
        const raw = readFileSync(`${FIXTURES}/stream-basic.sse`);
        expect(decodeAll(frame(raw, size, createSseParser()))).to.deep.equal(EXPECTED_BASIC);
      });
      it(`decodes stream-array.json in ${size}-byte pieces`, () => {
        const raw = readFileSync(`${FIXTURES}/stream-array.json`);
        expect(decodeAll(frame(raw, size, createJsonArrayParser()))).to.deep.equal(EXPECTED_BASIC);
      });
    }
  });

  it('emits a whole function call per part and finishes with tool_calls', () => {
    const events = decodeAll([
      chunk({ ...candidate([{ text: 'Checking.' }]), responseId: 'r1', modelVersion: 'gemini-3-flash-preview' }),
      chunk({
        ...candidate(
          [
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig' },
            { functionCall: { id: 'given', name: 'get_weather', args: { city: 'Tokyo' } } },
          ],
          'STOP',
        ),
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 9, totalTokenCount: 14 },
      }),
    ]);
    const starts = events.filter((e) => e.type === 'tool_call_start');
    expect(starts).to.have.length(2);
    expect(starts[0]).to.deep.include({ index: 0, name: 'get_weather', signature: 'sig' });
    expect(starts[0].type === 'tool_call_start' && starts[0].id).to.match(/^call_[0-9a-f]{8}_0$/);
    expect(starts[1]).to.deep.include({ index: 1, id: 'given' });
    expect(events.filter((e) => e.type === 'tool_call_delta')).to.deep.equal([
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":"Paris"}' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"city":"Tokyo"}' },
    ]);
    expect(events.at(-1)).to.deep.equal({ type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 5, outputTokens: 9, totalTokens: 14 } });
  });

  it('decodes thoughts, signatures, images and code execution', () => {
    const events = decodeAll([
      chunk({ ...candidate([{ text: 'thinking…', thought: true }]), responseId: 'r' }),
      chunk(candidate([{ text: 'Here', thoughtSignature: 'sig-1' }])),
      chunk(candidate([{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }])),
      chunk(candidate([{ executableCode: { language: 'PYTHON', code: 'print(2)' } }])),
      chunk(candidate([{ text: '', thoughtSignature: 'sig-2' }], 'STOP')),
    ]);
    expect(events.slice(1, -1)).to.deep.equal([
      { type: 'reasoning_delta', text: 'thinking…' },
      { type: 'reasoning_signature', signature: 'sig-1', provider: 'gemini' },
      { type: 'text_delta', text: 'Here' },
      { type: 'media', mediaType: 'image/png', data: 'AAAA' },
      { type: 'text_delta', text: '\n```python\nprint(2)\n```\n' },
      { type: 'reasoning_signature', signature: 'sig-2', provider: 'gemini' },
    ]);
    expect(events.at(-1)).to.deep.include({ type: 'finish', finishReason: 'stop' });
  });

  it('takes the finish reason of the last chunk that had one', () => {
    const events = decodeAll([chunk({ ...candidate([{ text: 'a' }], 'MAX_TOKENS'), responseId: 'r' }), chunk(candidate([{ text: 'b' }]))]);
    expect(events.at(-1)).to.deep.include({ finishReason: 'length' });
  });

  it('ends a failed turn (MALFORMED_FUNCTION_CALL) in an upstream error with its finishMessage, not an empty finish', () => {
    const events = decodeAll([
      chunk({ ...candidate([{ text: 'Listing.' }]), responseId: 'r' }),
      chunk({ candidates: [{ content: { role: 'model' }, finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'Malformed function call: ls(', index: 0 }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 } }),
    ]);
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'text_delta', 'usage', 'error']);
    const last = events.at(-1) as Extract<UnifiedStreamEvent, { type: 'error' }>;
    expect(last.error).to.include({ code: 'GW_UPSTREAM_ERROR', status: 502, message: 'upstream Gemini ended the turn with MALFORMED_FUNCTION_CALL: Malformed function call: ls(' });
  });

  it('reports a blocked prompt as content_filter', () => {
    const events = decodeAll([chunk({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 }, responseId: 'r' })]);
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'usage', 'finish']);
    expect(events.at(-1)).to.deep.include({ finishReason: 'content_filter' });
  });

  it('reports the blocked-prompt fixture, which carries no finishReason, as a content_filter finish', () => {
    const events = decodeAll([{ data: readFileSync(`${FIXTURES}/response-prompt-blocked.json`, 'utf8') }]);
    expect(events).to.deep.equal([
      { type: 'start', id: 'uWi8aPf2D1zkz7IPs-ot8Qw', model: 'gemini-2.5-flash', created: 0, usage: { inputTokens: 9 } },
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 0, totalTokens: 9 } },
      { type: 'finish', finishReason: 'content_filter', usage: { inputTokens: 9, outputTokens: 0, totalTokens: 9 } },
    ]);
  });

  // Gemini SSE has no sentinel: only the last chunk carries finishReason, so a clean close without one is a cut.
  for (const [what, framing, size] of [
    ['stream-basic.sse', createSseParser, 1],
    ['stream-basic.sse', createSseParser, 100000],
    ['stream-array.json', createJsonArrayParser, 100000],
  ] as const) {
    it(`reports ${what} cut before its finishReason chunk (${size}-byte pieces) as an error, not a finish`, () => {
      const full = readFileSync(`${FIXTURES}/${what}`, 'utf8');
      const cut = what.endsWith('.sse') ? full.slice(0, full.indexOf('\r\n\r\n') + 4) : full.slice(0, full.indexOf('\n  },\n') + 4) + '\n]';
      const events = decodeAll(frame(Buffer.from(cut), size, framing()));
      expect(events.slice(0, -1)).to.deep.equal(EXPECTED_BASIC.slice(0, 3));
      const last = events.at(-1)!;
      expect(last.type).to.equal('error');
      if (last.type !== 'error') return;
      expect([last.error.code, last.error.message]).to.deep.equal([
        'GW_UPSTREAM_BAD_RESPONSE',
        'upstream stream ended before the response was complete',
      ]);
    });
  }

  it('reports a cut tool-calling stream as an error, not a tool_calls finish', () => {
    const events = decodeAll([chunk({ ...candidate([{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }]), responseId: 'r' })]);
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'tool_call_start', 'tool_call_delta', 'error']);
  });

  for (const name of ['basic', 'code-execution', 'function-call', 'image', 'thinking']) {
    it(`ends a one-chunk stream of response-${name}.json (finishReason on its only chunk) with a finish`, () => {
      const events = decodeAll([{ data: readFileSync(`${FIXTURES}/response-${name}.json`, 'utf8') }]);
      expect(events.filter((e) => e.type === 'error')).to.deep.equal([]);
      expect(events.at(-1)!.type).to.equal('finish');
    });
  }

  for (const [what, data] of [
    ['a bare error chunk', JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } })],
    ['an error wrapped in an array', JSON.stringify([{ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }])],
  ] as const) {
    it(`turns ${what} into one error event and nothing after it`, () => {
      const decoder = createGeminiStreamDecoder();
      const first = decoder.push(chunk({ ...candidate([{ text: 'partial' }]), responseId: 'r' }));
      const error = decoder.push({ data });
      expect(first.map((e) => e.type)).to.deep.equal(['start', 'text_delta']);
      expect(error).to.have.length(1);
      const event = error[0];
      expect(event.type).to.equal('error');
      if (event.type !== 'error') return;
      expect(event.error.code).to.equal('GW_UPSTREAM_OVERLOADED');
      expect(event.error.status).to.equal(503);
      expect(event.error.message).to.equal('The model is overloaded.');
      expect(decoder.push(chunk(candidate([{ text: 'more' }])))).to.deep.equal([]);
      expect(decoder.end()).to.deep.equal([]);
    });
  }

  it('reports a 429 error chunk with the upstream status', () => {
    const events = decodeAll([{ data: readFileSync(`${FIXTURES}/error-429.json`, 'utf8') }]);
    expect(events).to.have.length(1);
    const event = events[0];
    expect(event.type === 'error' && [event.error.code, event.error.status, event.error.upstreamType]).to.deep.equal([
      'GW_UPSTREAM_ERROR',
      429,
      'RESOURCE_EXHAUSTED',
    ]);
  });

  it('answers GW_UPSTREAM_BAD_RESPONSE for a chunk that is not JSON, or a stream with no chunk', () => {
    const bad = decodeAll([{ data: '{"candidates": [' }]);
    expect(bad).to.have.length(1);
    expect(bad[0].type === 'error' && isGatewayError(bad[0].error) && bad[0].error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    const empty = decodeAll([]);
    expect(empty.map((e) => e.type)).to.deep.equal(['error']);
  });

  it('emits usage only when it changes', () => {
    const usageMetadata = { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 };
    const events = decodeAll([
      chunk({ ...candidate([{ text: 'a' }]), usageMetadata, responseId: 'r' }),
      chunk({ ...candidate([{ text: 'b' }], 'STOP'), usageMetadata }),
    ]);
    expect(events.filter((e) => e.type === 'usage')).to.have.length(1);
  });

  it('gives the prompt count (and cached part) on start, for a Messages client\'s message_start', () => {
    const usageMetadata = { promptTokenCount: 61, cachedContentTokenCount: 40, candidatesTokenCount: 3, totalTokenCount: 64 };
    const events = decodeAll([chunk({ ...candidate([{ text: 'a' }]), usageMetadata, responseId: 'r' }), chunk({ ...candidate([{ text: 'b' }], 'STOP'), usageMetadata })]);
    expect(events[0]).to.deep.equal({ type: 'start', id: 'r', model: '', created: 0, usage: { inputTokens: 61, cachedInputTokens: 40 } });
    const encoder = createMessagesStreamEncoder({ model: 'gemini-2.5-flash', system: [], stream: true });
    const start = JSON.parse(events.flatMap((event) => encoder.push(event))[0].data) as { message: { usage: Record<string, number> } };
    expect(start.message.usage).to.include({ input_tokens: 21, cache_read_input_tokens: 40 });
  });
});

describe('createGeminiStreamDecoder: an error given as a string', () => {
  it('ends the stream with that error, its text kept', () => {
    const decoder = createGeminiStreamDecoder();
    const events = [...decoder.push({ data: '{"error":"Upstream provider error: quota exceeded"}' }), ...decoder.end()];
    const last = events.at(-1);
    expect(last?.type).to.equal('error');
    if (last?.type !== 'error') return;
    expect([last.error.status, last.error.message]).to.deep.equal([502, 'Upstream provider error: quota exceeded']);
  });
});
