import { expect } from 'chai';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import { geminiMethodPath, geminiModelPath } from '../../../../core/codecs/gemini';

describe('geminiModelPath', () => {
  const cases: Array<[string, boolean, string]> = [
    ['gemini-2.5-flash', false, '/v1beta/models/gemini-2.5-flash:generateContent'],
    ['gemini-2.5-flash', true, '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'],
    ['models/gemini-3-flash-preview', false, '/v1beta/models/gemini-3-flash-preview:generateContent'],
    ['tunedModels/my-model', true, '/v1beta/tunedModels/my-model:streamGenerateContent?alt=sse'],
    ['odd name?x', false, '/v1beta/models/odd%20name%3Fx:generateContent'],
    ['emoji-😀', false, '/v1beta/models/emoji-%F0%9F%98%80:generateContent'],
  ];
  for (const [model, stream, path] of cases) {
    it(`${model} (stream ${String(stream)}) → ${path}`, () => {
      expect(geminiModelPath(model, stream)).to.equal(path);
    });
  }

  it('takes another API version', () => {
    expect(geminiModelPath('gemini-2.5-flash', false, 'v1')).to.equal('/v1/models/gemini-2.5-flash:generateContent');
  });

  it('builds the path of another method', () => {
    expect(geminiMethodPath('tunedModels/t 1', 'countTokens', 'v1')).to.equal('/v1/tunedModels/t%201:countTokens');
  });

  // The model is the client's: none of these may pick the upstream path the operator's key is sent to.
  // A lone surrogate cannot be encoded into a URL (encodeURIComponent throws): a 400 too, not the gateway's 500.
  const refused = ['../../../../tenant-b/admin/secret', 'models/../files', 'models/..', 'models/.', 'files/abc', 'models/a/b', 'models/', '/models/x', '', 'gemini-\ud800', '\udc00x', 'x\\@evil.example', 'models/a\\..\\files'];
  for (const model of refused) {
    it(`refuses ${JSON.stringify(model)} with a 400 naming model`, () => {
      let thrown: unknown;
      try {
        geminiModelPath(model, false);
      } catch (error) {
        thrown = error;
      }
      expect(isGatewayError(thrown) && [thrown.status, thrown.param]).to.deep.equal([400, 'model']);
    });
  }
});
