import { expect } from 'chai';
import nock from 'nock';
import { fixtureBytes, fixtureJson, replayChunks, SSE_HEADERS } from '../../../test/helpers/fixtures';
import { startGateway, TEST_ADMIN_KEY, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

const UPSTREAM = 'http://openai.upstream.test';
const UPSTREAM_KEY = 'sk-upstream-secret-key-000000000001';

describe('openai plugin (nock replays)', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ openai: { plugin: 'openai', baseUrl: UPSTREAM, credentials: [{ apiKey: UPSTREAM_KEY }], models: ['my-extra-model'] } });
  });
  after(() => gw.close());
  // A test that makes the upstream refuse the key leaves it resting or out of service: the next starts healthy.
  afterEach(async () => {
    const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };
    const view = (await (await fetch(`${gw.url}/admin/credentials/openai`, { headers: admin })).json()) as { credentials: Array<{ id: string }> };
    for (const credential of view.credentials) await fetch(`${gw.url}/admin/credentials/openai/tokens/${credential.id}/reset`, { method: 'POST', headers: admin });
  });

  it('forwards a chat request with the credential swapped and the license stripped', async () => {
    const requestBytes = fixtureBytes('openai-chat/request-basic.json');
    const responseBytes = fixtureBytes('openai-chat/response-basic.json');
    let seenBody: unknown;
    let seenHeaders: Record<string, unknown> = {};
    const upstream = nock(UPSTREAM)
      .post('/v1/chat/completions')
      .reply(function (_uri, body) {
        seenBody = body;
        seenHeaders = this.req.headers;
        return [200, responseBytes, { 'content-type': 'application/json', 'openai-organization': 'org-secret' }];
      });
    const res = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', 'x-stainless-lang': 'js' },
      body: requestBytes,
    });
    expect(res.status).to.equal(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(responseBytes)).to.equal(true);
    expect(res.headers.get('openai-organization')).to.equal(null);
    expect(seenBody).to.deep.equal(JSON.parse(requestBytes.toString('utf8')));
    expect(seenHeaders.authorization).to.equal(`Bearer ${UPSTREAM_KEY}`);
    expect(JSON.stringify(seenHeaders)).not.to.include(TEST_LICENSE);
    expect(seenHeaders['x-stainless-lang']).to.equal('js');
    expect(upstream.isDone()).to.equal(true);
  });

  it('streams a chat response unchanged, event by event', async () => {
    const stream = fixtureBytes('openai-chat/stream-basic.sse');
    nock(UPSTREAM).post('/v1/chat/completions').reply(200, () => replayChunks(stream, 11), SSE_HEADERS);
    const res = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: TEST_LICENSE, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(Buffer.from(await res.arrayBuffer()).equals(stream)).to.equal(true);
  });

  it('passes /v1/responses through', async () => {
    const response = fixtureJson('openai-responses/response-basic.json');
    nock(UPSTREAM).post('/v1/responses', fixtureJson('openai-responses/request-basic.json')).reply(200, response);
    const res = await fetch(`${gw.url}/openai/v1/responses`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_LICENSE, 'content-type': 'application/json' },
      body: fixtureBytes('openai-responses/request-basic.json'),
    });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal(response);
  });

  it('rests a rate-limited key for the upstream\'s retry-after; with no other key the client gets 429 with it and the upstream message', async () => {
    nock(UPSTREAM).post('/v1/chat/completions').reply(429, fixtureJson('openai-chat/error-429.json'), { 'retry-after': '7' });
    const res = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).to.equal(429);
    expect(res.headers.get('retry-after')).to.equal('7');
    const body = (await res.json()) as { error: { message: string; code: string } };
    expect(body.error.message).to.match(/^every API key of platform "openai" is rate-limited; retry later \(upstream: Rate limit reached/);
    const view = (await (await fetch(`${gw.url}/admin/credentials/openai`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } })).json()) as { credentials: Array<{ state: string; masked: string }> };
    expect(view.credentials).to.have.length(1);
    expect(view.credentials[0]).to.include({ state: 'cooling_down' });
    expect(view.credentials[0].masked).to.not.include(UPSTREAM_KEY.slice(3, -4));
  });

  it('takes a key the upstream refuses out of service (503, not the 401 that would blame the client), masking it in the message', async () => {
    nock(UPSTREAM).post('/v1/chat/completions').reply(401, { error: { message: `Incorrect API key provided: ${UPSTREAM_KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
    const res = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await res.text();
    expect(res.status).to.equal(503);
    expect(text).to.include('Incorrect API key provided');
    expect(text).not.to.include(UPSTREAM_KEY);
    expect(text).to.include('0001');
  });

  it('lists the upstream models plus the configured extras', async () => {
    nock(UPSTREAM).get('/v1/models').matchHeader('authorization', `Bearer ${UPSTREAM_KEY}`).reply(200, { object: 'list', data: [{ id: 'gpt-4.1-mini', object: 'model', created: 1, owned_by: 'openai' }] });
    const res = await fetch(`${gw.url}/openai/v1/models`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
    const body = (await res.json()) as { data: Array<{ id: string }> };
    expect(body.data.map((model) => model.id)).to.deep.equal(['gpt-4.1-mini', 'my-extra-model']);
  });

  it('answers a failed model list with the upstream message and retry-after kept, key masked', async () => {
    nock(UPSTREAM).get('/v1/models').reply(429, { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, { 'retry-after': '7' });
    const limited = await fetch(`${gw.url}/openai/v1/models`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
    expect(limited.status).to.equal(429);
    expect(limited.headers.get('retry-after')).to.equal('7');
    expect(((await limited.json()) as { error: { message: string } }).error.message).to.include('Rate limit reached for requests');
    await fetch(`${gw.url}/admin/credentials/openai/tokens/${encodeURIComponent((await adminView()).credentials[0].id)}/reset`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });

    nock(UPSTREAM).get('/v1/models').reply(401, { error: { message: `Incorrect API key provided: ${UPSTREAM_KEY}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    const refused = await fetch(`${gw.url}/openai/v1/models`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
    expect(refused.status).to.equal(503);
    const text = await refused.text();
    expect(text).to.include('Incorrect API key provided').and.not.include(UPSTREAM_KEY);
  });

  async function adminView(): Promise<{ credentials: Array<{ id: string; state: string }> }> {
    return (await (await fetch(`${gw.url}/admin/credentials/openai`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } })).json()) as { credentials: Array<{ id: string; state: string }> };
  }

  it('lists the configured models alone when the upstream has no usable list (404, another shape)', async () => {
    nock(UPSTREAM).get('/v1/models').reply(404, '404 page not found');
    nock(UPSTREAM).get('/v1/models').reply(200, { object: 'list', data: [null] });
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(`${gw.url}/openai/v1/models`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id)).to.deep.equal(['my-extra-model']);
    }
  });

  it('answers 502 in the OpenAI shape when the upstream cannot be reached', async () => {
    nock(UPSTREAM).post('/v1/chat/completions').replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const res = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).to.equal(502);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.type).to.equal('server_error');
    expect(body.error.message).not.to.include(UPSTREAM_KEY);
  });
});

describe('openai plugin: a credential of any shape stays masked', () => {
  // Not the `sk-` shape core also recognises by pattern: an OpenAI-compatible service's own key format.
  const XAI_UPSTREAM = 'http://xai.upstream.test';
  const XAI_KEY = 'xai-OWNshapeSECRETkey0000000001';
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ xai: { plugin: 'openai', baseUrl: XAI_UPSTREAM, credentials: [{ apiKey: XAI_KEY }] } });
  });
  after(() => gw.close());

  const post = (path: string, body: unknown) =>
    fetch(`${gw.url}/xai${path}`, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('in an upstream error answer, on the native and a translated endpoint', async () => {
    const echo = { error: { message: `Bad request made with credential ${XAI_KEY}`, type: 'invalid_request_error' } };
    nock(XAI_UPSTREAM).post('/v1/chat/completions').times(2).reply(400, echo);
    const native = await post('/v1/chat/completions', { model: 'grok-4', messages: [{ role: 'user', content: 'hi' }] });
    const translated = await post('/v1/messages', { model: 'grok-4', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
    for (const res of [native, translated]) {
      const text = await res.text();
      expect(res.status).to.equal(400);
      expect(text).to.include('Bad request made with credential xai-...0001');
      expect(text).not.to.include(XAI_KEY);
    }
  });

  it('in an error event inside a translated stream', async () => {
    const opened = fixtureBytes('openai-chat/stream-basic.sse').toString('utf8').split('\n\n').slice(0, 2).join('\n\n');
    const failure = `data: ${JSON.stringify({ error: { message: `stream failed for credential ${XAI_KEY}`, type: 'server_error' } })}\n\n`;
    nock(XAI_UPSTREAM).post('/v1/chat/completions').reply(200, `${opened}\n\n${failure}`, SSE_HEADERS);
    const res = await post('/v1/messages', { model: 'grok-4', max_tokens: 8, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const text = await res.text();
    expect(text).to.include('event: error');
    // Masked in the upstream's bytes before they are decoded, in place (as on passthrough): prefix and last 4 shown.
    expect(text).to.include(`stream failed for credential xai-${'*'.repeat(XAI_KEY.length - 8)}0001`);
    expect(text).not.to.include(XAI_KEY);
  });
});
