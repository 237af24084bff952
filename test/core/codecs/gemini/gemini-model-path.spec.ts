import { expect } from 'chai';
import { geminiModelPath } from '../../../../core/codecs/gemini';

describe('geminiModelPath', () => {
  const cases: Array<[string, boolean, string]> = [
    ['gemini-2.5-flash', false, '/v1beta/models/gemini-2.5-flash:generateContent'],
    ['gemini-2.5-flash', true, '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'],
    ['models/gemini-3-flash-preview', false, '/v1beta/models/gemini-3-flash-preview:generateContent'],
    ['tunedModels/my-model', true, '/v1beta/tunedModels/my-model:streamGenerateContent?alt=sse'],
    ['odd name?x', false, '/v1beta/models/odd%20name%3Fx:generateContent'],
  ];
  for (const [model, stream, path] of cases) {
    it(`${model} (stream ${String(stream)}) → ${path}`, () => {
      expect(geminiModelPath(model, stream)).to.equal(path);
    });
  }

  it('takes another API version', () => {
    expect(geminiModelPath('gemini-2.5-flash', false, 'v1')).to.equal('/v1/models/gemini-2.5-flash:generateContent');
  });
});
