import { expect } from 'chai';
import type { UpstreamRequest } from '@gateway/core';
import { createSafetySettings, DEFAULT_SAFETY_SETTINGS } from '../src/create-safety-settings';
import { createRefusalRepairs } from '../src/refusal-repairs';
import { renameWebSearchTools, toGeminiNativeRequest } from '../src/to-gemini-native-request';
import { extraHiddenClasses, skipUnlessMapsComparable } from '../../../test/helpers/hidden-class';

const SAFETY = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' }];

function native(raw: string): UpstreamRequest {
  return { mode: 'passthrough', format: 'gemini', method: 'POST', path: '/v1beta/models/m:generateContent', headers: {}, body: Buffer.from(raw), json: JSON.parse(raw) as Record<string, unknown>, stream: false };
}

describe('toGeminiNativeRequest', () => {
  it('splices the safety settings in front of the client\'s bytes', () => {
    const raw = '\n  {"contents":[{"parts":[{"text":"x"}]}] }';
    const { request, addedSafety } = toGeminiNativeRequest(native(raw), { generate: true, safetySettings: SAFETY });
    expect(addedSafety).to.equal(true);
    expect(request.body?.toString()).to.equal(`\n  {"safetySettings":${JSON.stringify(SAFETY)},"contents":[{"parts":[{"text":"x"}]}] }`);
    expect(JSON.parse(request.body?.toString() ?? '')).to.deep.equal(request.json);
  });

  it('splices into an empty object without a trailing comma', () => {
    const { request } = toGeminiNativeRequest(native('{ }'), { generate: true, safetySettings: SAFETY });
    expect(JSON.parse(request.body?.toString() ?? '')).to.deep.equal({ safetySettings: SAFETY });
  });

  it('leaves a request with its own settings untouched', () => {
    const input = native('{"contents":[],"safetySettings":[]}');
    expect(toGeminiNativeRequest(input, { generate: true, safetySettings: SAFETY })).to.deep.equal({ request: input, addedSafety: false });
  });

  it('leaves countTokens untouched', () => {
    const input = native('{"contents":[],"tools":[{"webSearch":{}}]}');
    expect(toGeminiNativeRequest(input, { generate: false, safetySettings: SAFETY }).request).to.equal(input);
  });

  it("renames the search tool inside countTokens' generateContentRequest, as a generation names it", () => {
    const input = native('{"generateContentRequest":{"model":"models/m","contents":[{"parts":[{"text":"x"}]}],"tools":[{"webSearch":{}}]}}');
    const { request } = toGeminiNativeRequest(input, { generate: false, safetySettings: SAFETY });
    expect(request.json).to.deep.equal({ generateContentRequest: { model: 'models/m', contents: [{ parts: [{ text: 'x' }] }], tools: [{ googleSearch: {} }] } });
    expect(request.body).to.equal(undefined);
  });

  it('re-serialises when a tool is renamed', () => {
    const { request } = toGeminiNativeRequest(native('{"contents":[],"safetySettings":[],"tools":[{"web_search":{"x":1}}]}'), { generate: true, safetySettings: SAFETY });
    expect(request.body).to.equal(undefined);
    expect(request.json).to.deep.equal({ contents: [], safetySettings: [], tools: [{ googleSearch: { x: 1 } }] });
  });

  it('renames only search tools', () => {
    expect(renameWebSearchTools([{ codeExecution: {} }])).to.equal(undefined);
    expect(renameWebSearchTools([{ webSearch: {} }, { functionDeclarations: [] }])).to.deep.equal([{ googleSearch: {} }, { functionDeclarations: [] }]);
  });

  it('refuses image/audio/video types the platform does not take, and lets documents through', () => {
    const gif = native('{"contents":[{"parts":[{"fileData":{"mimeType":"video/x-matroska","fileUri":"https://f/x"}}]}]}');
    expect(() => toGeminiNativeRequest(gif, { generate: true, safetySettings: SAFETY })).to.throw(/contents\[0\]\.parts\[0\]\.fileData\.mimeType: video\/x-matroska is not an accepted/);
    const pdf = native('{"contents":[{"parts":[{"inlineData":{"mimeType":"application/pdf","data":"JVBER"}}]}]}');
    expect(() => toGeminiNativeRequest(pdf, { generate: true, safetySettings: SAFETY })).not.to.throw();
  });
});

describe('toGeminiNativeRequest hidden classes', () => {
  it('gives every shaped body one hidden class (no per-request shapes on the hot path)', function () {
    const spliced: object[] = [];
    const rebuilt: object[] = [];
    for (let i = 0; i < 20; i += 1) {
      spliced.push(toGeminiNativeRequest(native(`{"contents":[{"parts":[{"text":"${i}"}]}]}`), { generate: true, safetySettings: SAFETY }).request.json!);
      rebuilt.push(toGeminiNativeRequest(native(`{"contents":[{"parts":[{"text":"${i}"}]}],"tools":[{"webSearch":{}}]}`), { generate: true, safetySettings: SAFETY }).request.json!);
    }
    skipUnlessMapsComparable(this, rebuilt[0]);
    expect(extraHiddenClasses(spliced)).to.equal(0);
    expect(extraHiddenClasses(rebuilt)).to.equal(0);
  });
});

describe('a native Gemini request written again whole keeps the digits of its tool values', () => {
  const BIG = '12345678901234567890';
  const TURNS = `"contents":[{"role":"model","parts":[{"functionCall":{"name":"get_order","args":{"order_id":${BIG}}}}]},{"role":"user","parts":[{"functionResponse":{"name":"get_order","response":{"id":${BIG}}}}]}]`;
  const written = (request: UpstreamRequest): string => (request.body ?? Buffer.from(JSON.stringify(request.json))).toString();

  it('when a webSearch tool is renamed (the body is rebuilt from the parsed JSON, which held 12345678901234567000)', () => {
    const { request } = toGeminiNativeRequest(native(`{${TURNS},"tools":[{"webSearch":{}}]}`), { generate: true, safetySettings: SAFETY });
    expect(written(request)).to.include(`"args":{"order_id":${BIG}}`).and.include(`"response":{"id":${BIG}}`).and.include('"googleSearch"');
  });

  it('when a countTokens request\'s generateContentRequest has its webSearch tool renamed', () => {
    const raw = `{"generateContentRequest":{"model":"models/m",${TURNS},"tools":[{"webSearch":{}}]}}`;
    const { request } = toGeminiNativeRequest(native(raw), { generate: false, safetySettings: SAFETY });
    expect(written(request)).to.include(`"args":{"order_id":${BIG}}`).and.include('"googleSearch"');
  });

  it('when Gemini refused the added civic-integrity setting and the request goes again without it', () => {
    // The defaults hold the civic-integrity setting that a model may refuse.
    const { request } = toGeminiNativeRequest(native(`{${TURNS}}`), { generate: true, safetySettings: [...DEFAULT_SAFETY_SETTINGS] });
    const [civic] = createRefusalRepairs({ platform: 'gemini', safety: createSafetySettings(undefined) });
    const retry = civic.without(request);
    expect(retry && written(retry)).to.include(`"args":{"order_id":${BIG}}`).and.include(`"response":{"id":${BIG}}`);
  });
});
