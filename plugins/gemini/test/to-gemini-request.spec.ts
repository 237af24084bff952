import { expect } from 'chai';
import { chatCompletionsCodec, type RequestContext, type UpstreamRequest } from '@gateway/core';
import { toGeminiRequest } from '../src/to-gemini-request';
import { extraHiddenClasses, skipUnlessMapsComparable } from '../../../test/helpers/hidden-class';

const SAFETY = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' }];
const SHAPE = { apiVersion: 'v1beta', safetySettings: SAFETY, media: { maxBytes: 1024, timeoutMs: 1000, allowPrivateAddresses: false } };
const CTX = { clientFormat: 'chat-completions', log: { debug() {} }, signal: new AbortController().signal } as unknown as RequestContext;

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

  it('gives every translated body one hidden class (no per-request shapes on the hot path)', async function () {
    const bodies: object[] = [];
    for (let i = 0; i < 20; i += 1) bodies.push((await toGeminiRequest(translated(`turn ${i}`), CTX, SHAPE)).json!);
    skipUnlessMapsComparable(this, bodies[0]);
    expect(extraHiddenClasses(bodies)).to.equal(0);
  });
});
