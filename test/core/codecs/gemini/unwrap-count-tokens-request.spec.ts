import { expect } from 'chai';
import { unwrapCountTokensRequest } from '../../../../core/codecs/gemini';

describe('unwrapCountTokensRequest', () => {
  const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
  it('takes the wrapped request in either spelling', () => {
    expect(unwrapCountTokensRequest({ generateContentRequest: { model: 'models/m', contents } })).to.deep.equal({ model: 'models/m', contents });
    expect(unwrapCountTokensRequest({ generate_content_request: { contents } })).to.deep.equal({ contents });
  });
  it('keeps a body with plain contents, or a wrapper that is not an object', () => {
    expect(unwrapCountTokensRequest({ contents })).to.deep.equal({ contents });
    expect(unwrapCountTokensRequest({ contents, generateContentRequest: [1] })).to.deep.equal({ contents, generateContentRequest: [1] });
  });
});
