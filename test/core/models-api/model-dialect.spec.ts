import { expect } from 'chai';
import { modelDialect } from '../../../core/models-api/model-dialect';

describe('modelDialect', () => {
  it('answers Gemini on the /v1beta paths whatever the headers', () => {
    expect(modelDialect('gemini.models', { 'anthropic-version': '2023-06-01' }, {})).to.equal('gemini');
    expect(modelDialect('gemini.models.get', {}, {})).to.equal('gemini');
  });

  it('tells the SDKs apart on /v1/models by what each always sends', () => {
    expect(modelDialect('models', { authorization: 'Bearer l', 'user-agent': 'OpenAI/JS 6.0.0' }, {})).to.equal('openai');
    expect(modelDialect('models', { 'x-api-key': 'l', 'anthropic-version': '2023-06-01' }, {})).to.equal('messages');
    expect(modelDialect('models.get', { 'x-goog-api-key': 'l' }, {})).to.equal('gemini');
    expect(modelDialect('models', { authorization: 'Bearer l', 'x-goog-api-client': 'google-genai-sdk/1.0.0 gl-node/20' }, {})).to.equal('gemini');
    expect(modelDialect('models', {}, { key: 'l' })).to.equal('gemini');
  });
});
