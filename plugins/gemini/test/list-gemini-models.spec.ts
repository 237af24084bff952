import { expect } from 'chai';
import nock from 'nock';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { KEY_A, UPSTREAM } from './helpers';

const FLASH = {
  name: 'models/gemini-2.5-flash',
  displayName: 'Gemini 2.5 Flash',
  supportedGenerationMethods: ['generateContent', 'countTokens'],
  thinking: true,
};
const EMBEDDING = { name: 'models/gemini-embedding-001', displayName: 'Gemini Embedding', supportedGenerationMethods: ['embedContent'] };
const IMAGE = { name: 'models/gemini-2.5-flash-image', displayName: 'Nano Banana', supportedGenerationMethods: ['generateContent', 'countTokens'] };

describe('gemini plugin: model lists', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }], models: ['gemini-exp-custom', 'gemini-2.5-flash'] } });
  });
  after(() => gw.close());

  it('GET /v1/models: every upstream page in the OpenAI list shape, -thinking variants of thinking models, then the extras', async () => {
    const first = nock(UPSTREAM)
      .get('/v1beta/models')
      .query({ pageSize: '1000' })
      .matchHeader('x-goog-api-key', KEY_A)
      .reply(200, { models: [FLASH, EMBEDDING], nextPageToken: 'page-2' });
    const second = nock(UPSTREAM).get('/v1beta/models').query({ pageSize: '1000', pageToken: 'page-2' }).reply(200, { models: [IMAGE] });
    const res = await fetch(`${gw.url}/gemini/v1/models`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { object: string; data: Array<{ id: string; object: string; owned_by: string }> };
    expect(body.object).to.equal('list');
    expect(body.data.map((model) => model.id)).to.deep.equal([
      'gemini-2.5-flash',
      'gemini-2.5-flash-thinking',
      'gemini-embedding-001',
      'gemini-2.5-flash-image',
      'gemini-exp-custom',
    ]);
    expect(body.data[0]).to.deep.include({ object: 'model', owned_by: 'google' });
    expect(first.isDone() && second.isDone()).to.equal(true);
  });

  it('GET /v1beta/models: every upstream model in the Gemini shape as it came, paged by the gateway, extras last and once', async () => {
    nock(UPSTREAM).get('/v1beta/models').query({ pageSize: '1000' }).twice().reply(200, { models: [FLASH, EMBEDDING], nextPageToken: 'next' });
    nock(UPSTREAM).get('/v1beta/models').query({ pageSize: '1000', pageToken: 'next' }).twice().reply(200, { models: [IMAGE] });
    const page1 = await fetch(`${gw.url}/gemini/v1beta/models?pageSize=2`, { headers: { 'x-goog-api-key': TEST_LICENSE } });
    expect(await page1.json()).to.deep.equal({ models: [FLASH, EMBEDDING], nextPageToken: '2' });

    const page2 = await fetch(`${gw.url}/gemini/v1beta/models?pageSize=2&pageToken=2&key=${TEST_LICENSE}`);
    expect(await page2.json()).to.deep.equal({
      models: [IMAGE, { name: 'models/gemini-exp-custom', displayName: 'gemini-exp-custom', supportedGenerationMethods: ['generateContent', 'countTokens'] }],
    });
  });

  it('GET /v1beta/models/{model}: the upstream object; an unknown model is a Gemini 404', async () => {
    nock(UPSTREAM).get('/v1beta/models').query(true).twice().reply(200, { models: [FLASH] });
    const found = await fetch(`${gw.url}/gemini/v1beta/models/gemini-2.5-flash`, { headers: { 'x-goog-api-key': TEST_LICENSE } });
    expect(await found.json()).to.deep.equal(FLASH);
    const missing = await fetch(`${gw.url}/gemini/v1beta/models/gemini-2.5-flash-thinking`, { headers: { 'x-goog-api-key': TEST_LICENSE } });
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.deep.equal({ error: { code: 404, message: 'model "gemini-2.5-flash-thinking" is not served by platform "gemini"', status: 'NOT_FOUND' } });
  });

  it('lists a model whose supportedGenerationMethods is not a list, without a -thinking variant', async () => {
    nock(UPSTREAM).get('/v1beta/models').query(true).reply(200, { models: [{ ...FLASH, supportedGenerationMethods: 5 }] });
    const res = await fetch(`${gw.url}/gemini/v1/models`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
    expect(res.status).to.equal(200);
    expect(((await res.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id)).to.deep.equal(['gemini-2.5-flash', 'gemini-exp-custom']);
  });

  it('answers an upstream failure of the list in the client\'s shape', async () => {
    nock(UPSTREAM).get('/v1beta/models').query(true).reply(500, { error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } });
    const res = await fetch(`${gw.url}/gemini/v1beta/models`, { headers: { 'x-goog-api-key': TEST_LICENSE } });
    expect(res.status).to.equal(500);
    expect(await res.json()).to.deep.equal({ error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } });
  });
});
