import { expect } from 'chai';
import { chatCompletionsCodec, messagesCodec, type RequestContext, type UpstreamRequest } from '@gateway/core';
import { toGeminiRequest } from '../src/to-gemini-request';
import { extraHiddenClasses, skipUnlessMapsComparable } from '../../../test/helpers/hidden-class';

const SAFETY = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' }];
const NO_SIGNATURES = { load: async () => new Map<string, string>() };
const SHAPE = { apiVersion: 'v1beta', safetySettings: SAFETY, media: { maxBytes: 1024, timeoutMs: 1000, allowPrivateAddresses: false }, signatures: NO_SIGNATURES };
const CTX = { clientFormat: 'chat-completions', principal: { kind: 'license', id: 'lic-...6789' }, log: { debug() {} }, signal: new AbortController().signal } as unknown as RequestContext;

function translated(text: string, stream = false): UpstreamRequest {
  const unified = chatCompletionsCodec.decodeRequest({ model: 'gemini-2.5-flash', stream, messages: [{ role: 'user', content: text }] });
  return { mode: 'translate', format: 'gemini', method: 'POST', path: '', headers: {}, body: undefined, json: undefined, unified, stream };
}

describe('toGeminiRequest', () => {
  it('encodes the unified request, adds the safety settings and names the model method', async () => {
    const shaped = await toGeminiRequest(translated('hi', true), CTX, SHAPE);
    expect(shaped.json).to.deep.include({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], safetySettings: SAFETY });
    expect(shaped.path).to.equal('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  });

  it("gives a Messages client's plain-text document as text (it was a 415: text is none of the platform's media types)", async () => {
    const unified = messagesCodec.decodeRequest({
      model: 'gemini-2.5-flash',
      max_tokens: 10,
      messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc as text source' }, title: 'T2' }, { type: 'text', text: 'summarize' }] }],
    });
    const request: UpstreamRequest = { mode: 'translate', format: 'gemini', method: 'POST', path: '', headers: {}, body: undefined, json: undefined, unified, stream: false };
    const shaped = await toGeminiRequest(request, CTX, SHAPE);
    expect((shaped.json as { contents: unknown }).contents).to.deep.equal([{ role: 'user', parts: [{ text: 'T2\n\ndoc as text source' }, { text: 'summarize' }] }]);
  });

  it('gives every translated body one hidden class (no per-request shapes on the hot path)', async function () {
    const bodies: object[] = [];
    for (let i = 0; i < 20; i += 1) bodies.push((await toGeminiRequest(translated(`turn ${i}`), CTX, SHAPE)).json!);
    skipUnlessMapsComparable(this, bodies[0]);
    expect(extraHiddenClasses(bodies)).to.equal(0);
  });

  it("puts back the thought signature kept for the current turn's call, where Gemini 3 would otherwise get the placeholder", async () => {
    const asked: string[][] = [];
    const signatures = {
      load: async (calls: ReadonlyArray<{ id: string }>) => {
        asked.push(calls.map((call) => call.id));
        return new Map(calls.filter((call) => call.id === 'call_now').map((call) => [call.id, 'kept-signature'] as [string, string]));
      },
    };
    const unified = chatCompletionsCodec.decodeRequest({
      model: 'gemini-3-pro-preview',
      tools: [{ type: 'function', function: { name: 'look', parameters: { type: 'object', properties: {} } } }],
      messages: [
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_before', type: 'function', function: { name: 'look', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_before', content: 'seen' },
        { role: 'assistant', content: 'Seen it.' },
        { role: 'user', content: 'second question' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_now', type: 'function', function: { name: 'look', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_now', content: 'seen again' },
      ],
    });
    const request: UpstreamRequest = { mode: 'translate', format: 'gemini', method: 'POST', path: '', headers: {}, body: undefined, json: undefined, unified, stream: false };
    const shaped = await toGeminiRequest(request, CTX, { ...SHAPE, signatures });
    const calls = (shaped.json as { contents: Array<{ parts: Array<{ functionCall?: { id?: string }; thoughtSignature?: string }> }> }).contents
      .flatMap((content) => content.parts)
      .filter((part) => part.functionCall);
    expect(calls.map((part) => [part.functionCall?.id, part.thoughtSignature])).to.deep.equal([
      ['call_before', 'skip_thought_signature_validator'],
      ['call_now', 'kept-signature'],
    ]);
    // Only the current turn's calls are looked up.
    expect(asked).to.deep.equal([['call_now']]);
  });
});
