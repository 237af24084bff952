import { expect } from 'chai';
import nock from 'nock';
import { startGateway, type RunningGateway } from '../../../test/helpers/start-gateway';
import { fromGroundedAnswer } from '../src/gemini-search';
import { KEY_A, postJson, UPSTREAM } from './helpers';

/** A grounded answer as the Gemini API sends it: redirect URIs, the site as title, supports citing chunk indices. */
const GROUNDED = {
  candidates: [
    {
      content: { role: 'model', parts: [{ text: 'Node 20 is LTS. Express 5 is stable.' }] },
      finishReason: 'STOP',
      groundingMetadata: {
        webSearchQueries: ['node 20 lts', 'express 5'],
        groundingChunks: [
          { web: { uri: 'https://nodejs.org/en/about/releases', title: 'nodejs.org' } },
          { web: { uri: 'https://expressjs.com/2024/10/15/v5-release.html', title: 'expressjs.com' } },
          { retrievedContext: { uri: 'gs://x', title: 'not web' } },
        ],
        groundingSupports: [
          { segment: { startIndex: 0, endIndex: 15, text: 'Node 20 is LTS.' }, groundingChunkIndices: [0] },
          { segment: { startIndex: 16, endIndex: 36, text: 'Express 5 is stable.' }, groundingChunkIndices: [1, 0] },
        ],
      },
    },
  ],
};

describe('gemini plugin: web search (Google-search grounding)', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }] } });
  });
  after(() => gw.close());
  afterEach(() => nock.cleanAll());

  it('answers every query with one googleSearch call; chunks become results with their supported segments', async () => {
    let sent: { contents: Array<{ parts: Array<{ text: string }> }>; tools: unknown } | undefined;
    nock(UPSTREAM)
      .post('/v1beta/models/gemini-2.5-flash:generateContent')
      .reply((_uri, body) => {
        sent = body as typeof sent;
        return [200, GROUNDED];
      });
    const res = await postJson(`${gw.url}/gemini/v1/alpha/search`, { id: 'sess', model: 'gpt-5', commands: { search_query: [{ q: 'node 20 lts' }, { q: 'express 5' }] } });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { output: string; encrypted_output: null; results: unknown[] };
    expect(sent?.tools).to.deep.equal([{ googleSearch: {} }]);
    expect(sent?.contents[0].parts[0].text).to.contain('"node 20 lts"').and.contain('"express 5"');
    expect(body.encrypted_output).to.equal(null);
    expect(body.results).to.deep.equal([
      { type: 'text_result', domain: 'nodejs.org', ref_id: 'turn0search0', snippet: 'Node 20 is LTS. Express 5 is stable.', title: 'nodejs.org', url: 'https://nodejs.org/en/about/releases' },
      { type: 'text_result', domain: 'expressjs.com', ref_id: 'turn0search1', snippet: 'Express 5 is stable.', title: 'expressjs.com', url: 'https://expressjs.com/2024/10/15/v5-release.html' },
    ]);
    expect(body.output).to.match(/^Node 20 is LTS\. Express 5 is stable\.\n\nSources:\n\[turn0search0\]/);
  });

  it('a second call of the session numbers its refs turn1; open/find commands are a 400', async () => {
    nock(UPSTREAM).post(/:generateContent$/).reply(200, GROUNDED);
    await postJson(`${gw.url}/gemini/v1/alpha/search`, { id: 'sess2', commands: { search_query: [{ q: 'a' }] } });
    nock(UPSTREAM).post(/:generateContent$/).reply(200, GROUNDED);
    const second = (await (await postJson(`${gw.url}/gemini/v1/alpha/search`, { id: 'sess2', commands: { search_query: [{ q: 'b' }] } })).json()) as { results: Array<{ ref_id: string }> };
    expect(second.results[0].ref_id).to.equal('turn1search0');
    const open = await postJson(`${gw.url}/gemini/v1/alpha/search`, { commands: { open: [{ ref_id: 'https://example.com' }] } });
    expect(open.status).to.equal(400);
    expect(((await open.json()) as { error: { param: string } }).error.param).to.equal('commands.open');
  });

  it('takes the site from the chunk (its domain, else its title) when the link is Google\'s grounding redirect', async () => {
    const redirect = (id: string) => `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${id}`;
    const answer = {
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'Two sources.' }] },
          finishReason: 'STOP',
          groundingMetadata: {
            groundingChunks: [
              { web: { uri: redirect('AbC1'), title: 'aljazeera.com' } },
              { web: { uri: redirect('AbC2'), title: 'UEFA Champions League', domain: 'uefa.com' } },
              { web: { uri: redirect('AbC3'), title: 'A page with no site name' } },
            ],
          },
        },
      ],
    };
    nock(UPSTREAM).post(/:generateContent$/).reply(200, answer);
    const res = await postJson(`${gw.url}/gemini/v1/alpha/search`, { id: 'sess3', commands: { search_query: [{ q: 'news' }] } });
    const body = (await res.json()) as { output: string; results: Array<{ domain: string; title: string; url: string }> };
    expect(body.results.map((result) => [result.domain, result.title])).to.deep.equal([
      ['aljazeera.com', 'aljazeera.com'],
      ['uefa.com', 'UEFA Champions League'],
      ['vertexaisearch.cloud.google.com', 'A page with no site name'],
    ]);
    expect(body.results[0].url).to.equal(redirect('AbC1'));
    expect(body.output).to.contain('(aljazeera.com)').and.contain('(uefa.com)');
  });

  it('an answer with neither text nor sources is a 502', () => {
    expect(() => fromGroundedAnswer({ candidates: [{ finishReason: 'SAFETY' }] })).to.throw(/finish reason SAFETY/);
  });
});
