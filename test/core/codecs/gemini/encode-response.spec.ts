import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { decodeResponse } from '../../../../core/codecs/gemini/decode-response';
import { encodeResponse } from '../../../../core/codecs/gemini/encode-response';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import type { UnifiedResponse } from '../../../../core/unified/unified-response';
import { FIXTURES_DIR } from '../../../helpers/fixtures';

const FIXTURES = FIXTURES_DIR + '/gemini';
// Thoughts asked for, as Gemini CLI does; without it a Gemini client gets none (see showsThoughts).
const REQUEST: UnifiedRequest = { model: 'gemini-2.5-flash', system: [], messages: [], stream: false, reasoning: { includeThoughts: true } };

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${FIXTURES}/${name}`, 'utf8')) as Record<string, unknown>;
}

/** What the encoder keeps of a Gemini response: one candidate, the four usage counts, no token details. */
function essentials(body: Record<string, unknown>): Record<string, unknown> {
  const { candidates, usageMetadata, modelVersion, responseId } = body as {
    candidates: Array<Record<string, unknown>>;
    usageMetadata: Record<string, unknown>;
    modelVersion: string;
    responseId: string;
  };
  const { promptTokenCount, candidatesTokenCount, thoughtsTokenCount, totalTokenCount } = usageMetadata;
  return {
    candidates,
    usageMetadata: JSON.parse(JSON.stringify({ promptTokenCount, candidatesTokenCount, totalTokenCount, thoughtsTokenCount })) as unknown,
    modelVersion,
    responseId,
  };
}

describe('gemini encodeResponse', () => {
  for (const name of ['response-basic.json', 'response-thinking.json', 'response-image.json']) {
    it(`decode → encode gives back ${name}`, () => {
      const expected = essentials(fixture(name));
      expect(encodeResponse(decodeResponse(fixture(name)), REQUEST)).to.deep.equal(expected);
    });
  }

  it('gives an answer with nothing to show one empty text part (the SDK chat drops a turn without parts, and the user turn before it)', () => {
    const body = encodeResponse({ id: 'r', model: 'm', created: 0, content: [{ type: 'reasoning', text: 'hidden', provider: 'messages', signature: 's' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }, { ...REQUEST, reasoning: { includeThoughts: false } });
    expect(body.candidates?.[0].content?.parts).to.have.length(1);
    expect(body.candidates?.[0].content?.parts?.[0]).to.include({ text: '' });
  });

  it("tells an end no format names (a service's own finish reason) as STOP: Gemini's OTHER is a failed turn", () => {
    const body = encodeResponse({ id: 'r', model: 'm', created: 0, content: [{ type: 'text', text: 'hi' }], finishReason: 'other', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }, REQUEST);
    expect(body.candidates?.[0].finishReason).to.equal('STOP');
  });

  it('re-encodes function calls with their ids and the signature on the first call', () => {
    const out = encodeResponse(decodeResponse(fixture('response-function-call.json')), REQUEST);
    const parts = out.candidates?.[0].content?.parts ?? [];
    expect(parts.map((p) => p.functionCall?.name)).to.deep.equal(['get_weather', 'get_weather']);
    expect(parts.map((p) => p.functionCall?.args)).to.deep.equal([
      { city: 'Paris', unit: 'celsius' },
      { city: 'Tokyo', unit: 'celsius' },
    ]);
    expect(parts[0].functionCall?.id).to.be.a('string');
    expect(parts[0].thoughtSignature).to.match(/^CpUC/);
    expect(parts[1].thoughtSignature).to.equal(undefined);
    expect(out.candidates?.[0].finishReason).to.equal('STOP');
  });

  it('encodes a response from another platform: reasoning as thoughts, usage split; a call cut short is left out beside a whole one', () => {
    const response: UnifiedResponse = {
      id: 'msg_01abc',
      model: 'claude-sonnet-4-6',
      created: 1,
      content: [
        { type: 'reasoning', text: 'Let me think.', signature: 'anthropic-sig', provider: 'messages' },
        { type: 'text', text: 'Done.' },
        { type: 'tool_call', id: 'toolu_01', name: 'f', arguments: '{"a":[1]}' },
        { type: 'tool_call', id: 'toolu_02', name: 'g', arguments: '{"trunc' },
      ],
      finishReason: 'length',
      usage: { inputTokens: 10, outputTokens: 30, totalTokens: 40, reasoningTokens: 12, cachedInputTokens: 4 },
    };
    expect(encodeResponse(response, REQUEST)).to.deep.equal({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Let me think.', thought: true },
              { text: 'Done.' },
              { functionCall: { id: 'toolu_01', name: 'f', args: { a: [1] } } },
            ],
          },
          finishReason: 'MAX_TOKENS',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 18, totalTokenCount: 40, cachedContentTokenCount: 4, thoughtsTokenCount: 12 },
      modelVersion: 'claude-sonnet-4-6',
      responseId: 'msg_01abc',
    });
  });

  it('hides thoughts when the client switched them off, keeping a Gemini signature on the next part', () => {
    const response: UnifiedResponse = {
      id: 'r',
      model: 'm',
      created: 0,
      content: [
        { type: 'reasoning', text: 'secret', signature: 'sig', provider: 'gemini' },
        { type: 'text', text: 'answer' },
      ],
      finishReason: 'content_filter',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    };
    const out = encodeResponse(response, { ...REQUEST, reasoning: { includeThoughts: false } });
    expect(out.candidates?.[0].content?.parts).to.deep.equal([{ text: 'answer', thoughtSignature: 'sig' }]);
    expect(out.candidates?.[0].finishReason).to.equal('SAFETY');
    // Gemini's default: no thoughts unless asked (a budget alone does not ask), so `parts[0].text` is the answer.
    const unasked = encodeResponse(response, { ...REQUEST, reasoning: { enabled: true, budgetTokens: 2048 } });
    expect(unasked.candidates?.[0].content?.parts).to.deep.equal([{ text: 'answer', thoughtSignature: 'sig' }]);
    // A gateway `-thinking` variant asks for them, also with the pool's -max in either order.
    for (const model of ['claude-sonnet-4-5-thinking', 'gpt-x-thinking-max', 'gpt-x-max-thinking']) {
      const variant = encodeResponse(response, { ...REQUEST, model, reasoning: undefined });
      expect(variant.candidates?.[0].content?.parts, model).to.deep.equal([{ text: 'secret', thought: true, thoughtSignature: 'sig' }, { text: 'answer' }]);
    }
  });

  it('ends MALFORMED_FUNCTION_CALL when the only call was cut short; whole JSON that is no object (null, []) is a call without arguments', () => {
    const answer = (args: string[]): UnifiedResponse => ({
      id: 'r',
      model: 'm',
      created: 1,
      content: args.map((text, i) => ({ type: 'tool_call' as const, id: `call_${i}`, name: 'get_time', arguments: text })),
      finishReason: 'length',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    });
    const cut = encodeResponse(answer(['{"tz":"Europe/Par']), REQUEST);
    expect(cut.candidates?.[0]).to.deep.include({ finishReason: 'MALFORMED_FUNCTION_CALL', content: { role: 'model', parts: [{ text: '' }] } });
    const none = encodeResponse({ ...answer(['null', '[]']), finishReason: 'tool_calls' }, REQUEST);
    expect(none.candidates?.[0].finishReason).to.equal('STOP');
    expect(none.candidates?.[0].content?.parts?.map((part) => part.functionCall?.args)).to.deep.equal([{}, {}]);
  });
});
