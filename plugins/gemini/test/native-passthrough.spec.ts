import { expect } from 'chai';
import nock from 'nock';
import { fixtureBytes, fixtureJson, fixtureText, replayChunks, SSE_HEADERS } from '../../../test/helpers/fixtures';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { KEY_A, postJson, rawBodyOf, SAFETY_OFF, UPSTREAM, type SeenRequest } from './helpers';

const GENERATE = '/v1beta/models/gemini-2.5-flash:generateContent';
const STREAM = '/v1beta/models/gemini-2.5-flash:streamGenerateContent';

describe('gemini plugin: native path (nock replays)', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }] } });
  });
  after(() => gw.close());

  /** Answers `status, body` on `path` and records what the gateway sent. */
  function upstream(path: string | RegExp, reply: () => [number, unknown, Record<string, string>?]): SeenRequest[] {
    const seen: SeenRequest[] = [];
    nock(UPSTREAM)
      .post(path)
      .query(true)
      .reply(function (uri, body) {
        seen.push({ path: uri, headers: this.req.headers, body: body as Record<string, unknown>, raw: rawBodyOf(this.req) });
        return reply();
      });
    return seen;
  }

  it('forwards generateContent with the key swapped, the license stripped, and the default safety settings spliced in', async () => {
    const clientBody = `{ "contents" : ${JSON.stringify(fixtureJson('gemini/request-basic.json').contents)}, "futureField": {"kept": true} }`;
    const responseBytes = fixtureBytes('gemini/response-basic.json');
    const seen = upstream(/.*/, () => [200, responseBytes, { 'content-type': 'application/json; charset=UTF-8' }]);
    const res = await fetch(`${gw.url}/gemini${GENERATE}?key=${TEST_LICENSE}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: clientBody });
    expect(res.status).to.equal(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(responseBytes)).to.equal(true);
    expect(seen[0].path).to.equal(GENERATE);
    expect(seen[0].headers['x-goog-api-key']).to.equal(KEY_A);
    expect(JSON.stringify(seen[0].headers)).not.to.include(TEST_LICENSE);
    // The client's bytes, untouched, behind the inserted member.
    expect(seen[0].raw).to.equal(`{"safetySettings":${JSON.stringify(SAFETY_OFF)},${clientBody.slice(1)}`);
    expect(seen[0].body.safetySettings).to.deep.equal(SAFETY_OFF);
  });

  it('serves the v1alpha API version and tuned models as Gemini does, on their own paths', async () => {
    for (const path of ['/v1alpha/models/gemini-2.5-flash:generateContent', '/v1beta/tunedModels/my-tuned-1:generateContent', '/v1beta/tunedModels/my-tuned-1:streamGenerateContent']) {
      const seen = upstream(/.*/, () => [200, fixtureBytes('gemini/response-basic.json'), { 'content-type': 'application/json' }]);
      const res = await fetch(`${gw.url}/gemini${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': TEST_LICENSE }, body: JSON.stringify(fixtureJson('gemini/request-basic.json')) });
      expect(res.status, path).to.equal(200);
      expect(seen[0].path, path).to.equal(path);
      expect(seen[0].headers['x-goog-api-key']).to.equal(KEY_A);
    }
  });

  it('refuses with a 400 naming model, without an upstream call, a model segment that is no Gemini model name once decoded', async () => {
    for (const path of ['/v1beta/tunedModels/..%2Fcorpora%2Fx:generateContent', '/v1beta/models/a%2Fb:generateContent', '/v1beta/tunedModels/%2e%2e:generateContent']) {
      const res = await fetch(`${gw.url}/gemini${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': TEST_LICENSE }, body: JSON.stringify(fixtureJson('gemini/request-basic.json')) });
      expect(res.status, path).to.equal(400);
      expect(((await res.json()) as { error: { message: string } }).error.message, path).to.match(/^model: /);
    }
  });

  it('keeps a client\'s own safety settings, byte for byte', async () => {
    const clientBody = JSON.stringify({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
    });
    const seen = upstream(GENERATE, () => [200, fixtureJson('gemini/response-basic.json')]);
    const res = await postJson(`${gw.url}/gemini${GENERATE}`, clientBody);
    expect(res.status).to.equal(200);
    expect(seen[0].raw).to.equal(clientBody);
  });

  it('keeps a client\'s snake_case safety_settings too', async () => {
    const clientBody = JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }], safety_settings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }] });
    const seen = upstream(GENERATE, () => [200, fixtureJson('gemini/response-basic.json')]);
    await postJson(`${gw.url}/gemini${GENERATE}`, clientBody);
    expect(seen[0].raw).to.equal(clientBody);
  });

  it('renames the {webSearch: {}} tool to googleSearch and keeps the other tools', async () => {
    const seen = upstream(GENERATE, () => [200, fixtureJson('gemini/response-basic.json')]);
    await postJson(`${gw.url}/gemini${GENERATE}`, {
      contents: [{ role: 'user', parts: [{ text: 'news today?' }] }],
      tools: [{ webSearch: {} }, { codeExecution: {} }],
    });
    expect(seen[0].body.tools).to.deep.equal([{ googleSearch: {} }, { codeExecution: {} }]);
    expect(seen[0].body.safetySettings).to.deep.equal(SAFETY_OFF);
    expect(seen[0].body.contents).to.deep.equal([{ role: 'user', parts: [{ text: 'news today?' }] }]);
  });

  it('streams a JSON-array answer back unchanged, element by element', async () => {
    const stream = fixtureBytes('gemini/stream-array.json');
    const seen = upstream(STREAM, () => [200, replayChunks(stream, 13), { 'content-type': 'application/json; charset=UTF-8' }]);
    const res = await postJson(`${gw.url}/gemini${STREAM}`, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(Buffer.from(await res.arrayBuffer()).equals(stream)).to.equal(true);
    expect(seen[0].path).to.equal(STREAM);
  });

  it('streams SSE unchanged when the client asks for alt=sse', async () => {
    const stream = fixtureBytes('gemini/stream-basic.sse');
    const seen = upstream(/.*/, () => [200, replayChunks(stream, 9), SSE_HEADERS]);
    const res = await fetch(`${gw.url}/gemini${STREAM}?alt=sse&key=${TEST_LICENSE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(await res.text()).to.equal(fixtureText('gemini/stream-basic.sse'));
    expect(seen[0].path).to.equal(`${STREAM}?alt=sse`);
  });

  it('passes countTokens through without adding safety settings', async () => {
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'count me' }] }] });
    const seen = upstream('/v1beta/models/gemini-2.5-flash:countTokens', () => [200, { totalTokens: 3 }]);
    const res = await postJson(`${gw.url}/gemini/v1beta/models/gemini-2.5-flash:countTokens`, body);
    expect(await res.json()).to.deep.equal({ totalTokens: 3 });
    expect(seen[0].raw).to.equal(body);
  });

  it('forwards an accepted multimodal request (snake_case inline_data)', async () => {
    const seen = upstream(GENERATE, () => [200, fixtureJson('gemini/response-basic.json')]);
    const res = await postJson(`${gw.url}/gemini${GENERATE}`, fixtureText('gemini/request-multimodal.json'));
    expect(res.status).to.equal(200);
    expect(seen[0].body.contents).to.deep.equal(fixtureJson('gemini/request-multimodal.json').contents);
  });

  it('refuses an image format the platform does not take with 415, in the Gemini shape, before any upstream call', async () => {
    const scope = nock(UPSTREAM).post(/.*/).reply(200, {});
    const res = await postJson(`${gw.url}/gemini${GENERATE}`, {
      contents: [{ role: 'user', parts: [{ text: 'what is this?' }, { inline_data: { mime_type: 'image/gif', data: 'R0lGODlhAQABAAAAACw=' } }] }],
    });
    expect(res.status).to.equal(415);
    const body = (await res.json()) as { error: { code: number; message: string; status: string } };
    expect(body.error.code).to.equal(415);
    expect(body.error.message).to.match(/^contents\[0\]\.parts\[1\]\.inline_data\.mime_type: image\/gif is not an accepted media type/);
    expect(scope.isDone()).to.equal(false);
  });

  it('answers an upstream error in the Gemini shape with the upstream message and status name', async () => {
    upstream(GENERATE, () => [400, fixtureJson('gemini/error-400.json')]);
    const res = await postJson(`${gw.url}/gemini${GENERATE}`, { contents: [{ parts: [{ text: 'hi' }] }] });
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { error: { code: number; message: string; status: string } };
    expect(body.error).to.deep.include({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body.error.message).to.match(/^Invalid JSON payload received\. Unknown name "max_tokens"/);
  });

  it('masks an upstream key echoed in an error message', async () => {
    upstream(GENERATE, () => [400, { error: { code: 400, message: `API key ${KEY_A} expired.`, status: 'INVALID_ARGUMENT' } }]);
    const res = await postJson(`${gw.url}/gemini${GENERATE}`, { contents: [{ parts: [{ text: 'hi' }] }] });
    const text = await res.text();
    expect(text).not.to.include(KEY_A);
    expect(text).to.include('0001');
  });
});
