import { expect } from 'chai';
import nock from 'nock';
import { fixtureBytes, fixtureJson, replayChunks, SSE_HEADERS } from '../../../test/helpers/fixtures';
import { startGateway, TEST_ADMIN_KEY, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

const UPSTREAM = 'http://pool.upstream.test';
const TOKENS = {
  first: 'acct-first-token-00000001',
  second: 'acct-second-token-0000002',
  premium: 'acct-premium-token-000003',
  spare: 'acct-spare-token-00000004',
};

interface PoolView {
  platform: string;
  credentials: Array<{ id: string; masked: string; tier: string; state: string; inRotation: boolean; requests: number; errors: number; lastError?: string; cooldownUntil?: string }>;
}

function poolConfig(extra: Record<string, unknown> = {}) {
  return {
    pool: {
      plugin: 'token-pool',
      baseUrl: UPSTREAM,
      rotation: 3,
      tokens: [{ token: TOKENS.first }, { token: TOKENS.second }, { token: TOKENS.premium, tier: 'premium' }, { token: TOKENS.spare }],
      premiumModels: ['gpt-5'],
      models: ['extra-model'],
      ...extra,
    },
  };
}

async function post(gw: RunningGateway, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
}

async function adminView(gw: RunningGateway): Promise<PoolView> {
  const res = await fetch(`${gw.url}/admin/pools/pool`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
  expect(res.status).to.equal(200);
  return (await res.json()) as PoolView;
}

const bearer = (token: string): string => `Bearer ${token}`;
const chat = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('token-pool plugin (nock replays)', () => {
  let gw: RunningGateway;
  beforeEach(async () => {
    gw = await startGateway(poolConfig());
  });
  afterEach(() => gw.close());

  it('passes a chat request through byte for byte with a pool token as Bearer, the license stripped', async () => {
    const requestBytes = fixtureBytes('openai-chat/request-basic.json');
    const responseBytes = fixtureBytes('openai-chat/response-basic.json');
    let seenBody = '';
    let seenLength = '';
    const upstream = nock(UPSTREAM)
      .post('/v1/chat/completions')
      .matchHeader('authorization', bearer(TOKENS.first))
      .reply(function (_uri, body) {
        seenBody = JSON.stringify(body);
        seenLength = String(this.req.headers['content-length']);
        expect(JSON.stringify(this.req.headers)).not.to.include(TEST_LICENSE);
        return [200, responseBytes, { 'content-type': 'application/json' }];
      });
    const res = await post(gw, '/pool/v1/chat/completions', requestBytes);
    expect(res.status).to.equal(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(responseBytes)).to.equal(true);
    expect(seenBody).to.equal(JSON.stringify(JSON.parse(requestBytes.toString('utf8'))));
    expect(seenLength).to.equal(String(requestBytes.length)); // the client's own (pretty-printed) bytes, not a re-encoding
    expect(upstream.isDone()).to.equal(true);
  });

  it('rotates round-robin over the rotation set only', async () => {
    const seen: string[] = [];
    nock(UPSTREAM)
      .post('/v1/chat/completions')
      .times(6)
      .reply(function () {
        seen.push(String(this.req.headers.authorization));
        return [200, fixtureJson('openai-chat/response-basic.json')];
      });
    for (let i = 0; i < 6; i += 1) expect((await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1'))).status).to.equal(200);
    expect(seen).to.deep.equal([TOKENS.first, TOKENS.second, TOKENS.premium, TOKENS.first, TOKENS.second, TOKENS.premium].map(bearer));
  });

  it('keeps the round-robin of ordinary requests whole when premium ones come in between (each every token of the set in turn)', async () => {
    const seen: string[] = [];
    nock(UPSTREAM)
      .post('/v1/chat/completions')
      .times(12)
      .reply(function () {
        seen.push(String(this.req.headers.authorization));
        return [200, fixtureJson('openai-chat/response-basic.json')];
      });
    for (let i = 0; i < 6; i += 1) {
      expect((await post(gw, '/pool/v1/chat/completions', chat('gpt-5'))).status).to.equal(200);
      expect((await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1'))).status).to.equal(200);
    }
    const ordinary = seen.filter((_, i) => i % 2 === 1);
    expect(ordinary).to.deep.equal([TOKENS.first, TOKENS.second, TOKENS.premium, TOKENS.first, TOKENS.second, TOKENS.premium].map(bearer));
    expect(seen.filter((_, i) => i % 2 === 0)).to.deep.equal(Array(6).fill(bearer(TOKENS.premium)));
  });

  it('strips -thinking and merges reasoning_effort into the upstream body', async () => {
    let seen: unknown;
    nock(UPSTREAM).get('/v1/models').reply(200, { object: 'list', data: [{ id: 'gpt-4.1', object: 'model', created: 1, owned_by: 'system' }] });
    nock(UPSTREAM).post('/v1/chat/completions').reply((_uri, body) => {
      seen = body;
      return [200, fixtureJson('openai-chat/response-basic.json')];
    });
    const res = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1-thinking', { temperature: 0.5 }));
    expect(res.status).to.equal(200);
    expect(seen).to.deep.equal({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }], temperature: 0.5, reasoning_effort: 'high' });
  });

  it('serves a model the upstream lists under a -thinking name as it is, reading the list once, and still strips the suffix from others', async () => {
    const list = nock(UPSTREAM)
      .get('/v1/models')
      .once()
      .reply(200, { object: 'list', data: ['kimi-k2', 'kimi-k2-thinking'].map((id) => ({ id, object: 'model', created: 1, owned_by: 'moonshot' })) });
    const seen: unknown[] = [];
    nock(UPSTREAM)
      .post('/v1/chat/completions')
      .times(4)
      .reply((_uri, body) => {
        seen.push(body);
        return [200, fixtureJson('openai-chat/response-basic.json')];
      });
    for (const model of ['kimi-k2-thinking', 'kimi-k2-thinking']) expect((await post(gw, '/pool/v1/chat/completions', chat(model))).status).to.equal(200);
    // A translated client too.
    expect((await post(gw, '/pool/v1/messages', { model: 'kimi-k2-thinking', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' })).status).to.equal(200);
    expect((await post(gw, '/pool/v1/chat/completions', chat('kimi-k2-max-thinking'))).status).to.equal(200);
    expect(list.isDone()).to.equal(true);
    expect(seen.map((body) => (body as { model: string; reasoning_effort?: string }).model)).to.deep.equal(['kimi-k2-thinking', 'kimi-k2-thinking', 'kimi-k2-thinking', 'kimi-k2']);
    expect(seen.map((body) => (body as { reasoning_effort?: string }).reasoning_effort)).to.deep.equal([undefined, undefined, undefined, 'high']);
  });

  it('serves an upstream model named -max with any token when the pool has no premium one (the list is read with no model)', async () => {
    const basic = await startGateway({ pool: { plugin: 'token-pool', baseUrl: UPSTREAM, rotation: 2, tokens: [{ token: TOKENS.first }, { token: TOKENS.second }] } });
    try {
      nock(UPSTREAM).get('/v1/models').reply(200, { object: 'list', data: ['qwen-plus', 'qwen-max'].map((id) => ({ id, object: 'model', created: 1, owned_by: 'qwen' })) });
      let seen: unknown;
      nock(UPSTREAM).post('/v1/chat/completions').reply((_uri, body) => {
        seen = body;
        return [200, fixtureJson('openai-chat/response-basic.json')];
      });
      const res = await post(basic, '/pool/v1/chat/completions', chat('qwen-max'));
      expect(res.status).to.equal(200);
      expect(seen).to.deep.include({ model: 'qwen-max' });
    } finally {
      await basic.close();
    }
  });

  it('lists the models the upstream last listed and the operator\'s own while every token is limited, not a 429', async () => {
    const limited = await startGateway({ pool: { plugin: 'token-pool', baseUrl: UPSTREAM, rotation: 1, tokens: [{ token: TOKENS.first }], models: ['house-model'] } });
    try {
      const list = () => fetch(`${limited.url}/pool/v1/models`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
      const ids = async (res: Response) => ((await res.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id);
      nock(UPSTREAM).get('/v1/models').reply(200, { object: 'list', data: [{ id: 'gpt-4.1', object: 'model', created: 1, owned_by: 'system' }] });
      expect(await ids(await list())).to.include.members(['gpt-4.1', 'house-model']);
      nock(UPSTREAM).get('/v1/models').reply(429, fixtureJson('openai-chat/error-429.json'), { 'retry-after': '600' });
      const whileLimited = await list();
      expect(whileLimited.status).to.equal(200);
      expect(await ids(whileLimited)).to.include.members(['gpt-4.1', 'gpt-4.1-thinking', 'house-model']);
    } finally {
      await limited.close();
    }
  });

  it('looks up a combined variant by id (-max-thinking, either order) as it serves one', async () => {
    nock(UPSTREAM)
      .get('/v1/models')
      .times(2)
      .reply(200, { object: 'list', data: [{ id: 'gpt-4.1', object: 'model', created: 1, owned_by: 'system' }] });
    for (const id of ['gpt-4.1-max-thinking', 'gpt-4.1-thinking-max']) {
      const res = await fetch(`${gw.url}/pool/v1/models/${id}`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
      expect(res.status, id).to.equal(200);
      expect(await res.json(), id).to.deep.include({ id, object: 'model' });
    }
    nock(UPSTREAM).get('/v1/models').reply(200, { object: 'list', data: [{ id: 'gpt-4.1', object: 'model', created: 1, owned_by: 'system' }] });
    expect((await fetch(`${gw.url}/pool/v1/models/gpt-9-max-thinking`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } })).status).to.equal(404);
  });

  it('retries a rate-limited token on the next one before anything streams, then streams the answer unchanged', async () => {
    const stream = fixtureBytes('openai-chat/stream-basic.sse');
    nock(UPSTREAM)
      .post('/v1/chat/completions')
      .matchHeader('authorization', bearer(TOKENS.first))
      .reply(429, fixtureJson('openai-chat/error-429.json'), { 'retry-after': '30' });
    nock(UPSTREAM)
      .post('/v1/chat/completions')
      .matchHeader('authorization', bearer(TOKENS.second))
      .reply(200, () => replayChunks(stream, 9), SSE_HEADERS);
    const res = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1-mini', { stream: true }));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(Buffer.from(await res.arrayBuffer()).equals(stream)).to.equal(true);

    const first = (await adminView(gw)).credentials[0];
    expect(first).to.include({ masked: '...0001', state: 'limit_marked', inRotation: true, requests: 1, errors: 1 });
    expect(Date.parse(first.cooldownUntil!) - Date.now()).to.be.within(20_000, 31_000);
    expect(first.lastError).to.match(/^HTTP 429: Rate limit reached/);
  });

  it('judges a 200 stream that opens with an error event like a failed call: the token is marked, the request retried', async () => {
    const stream = fixtureBytes('openai-chat/stream-basic.sse');
    const quotaEvent = ': keep-alive\n\ndata: {"error":{"message":"You exceeded your current quota, please check your plan.","type":"insufficient_quota","code":"insufficient_quota"}}\n\n';
    nock(UPSTREAM).post('/v1/chat/completions').matchHeader('authorization', bearer(TOKENS.first)).reply(200, () => replayChunks(Buffer.from(quotaEvent), 7), SSE_HEADERS);
    nock(UPSTREAM).post('/v1/chat/completions').matchHeader('authorization', bearer(TOKENS.second)).reply(200, () => replayChunks(stream, 9), SSE_HEADERS);
    const res = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1-mini', { stream: true }));
    expect(res.status).to.equal(200);
    // The next token's stream, unchanged, from its first byte.
    expect(Buffer.from(await res.arrayBuffer()).equals(stream)).to.equal(true);
    const [first, second] = (await adminView(gw)).credentials;
    expect(first).to.include({ state: 'limit_marked', errors: 1 });
    expect(first.lastError).to.match(/You exceeded your current quota/);
    expect(second).to.include({ state: 'healthy', requests: 1, errors: 0 });
  });

  it('judges a 200 stream opening with an error given as a plain string the same way, its message kept', async () => {
    const stream = fixtureBytes('openai-chat/stream-basic.sse');
    nock(UPSTREAM).post('/v1/chat/completions').matchHeader('authorization', bearer(TOKENS.first)).reply(200, 'data: {"error":"You exceeded your current quota"}\n\n', SSE_HEADERS);
    nock(UPSTREAM).post('/v1/chat/completions').matchHeader('authorization', bearer(TOKENS.second)).reply(200, () => replayChunks(stream, 9), SSE_HEADERS);
    const res = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1-mini', { stream: true }));
    expect(Buffer.from(await res.arrayBuffer()).equals(stream)).to.equal(true);
    const [first] = (await adminView(gw)).credentials;
    expect(first).to.include({ state: 'limit_marked', errors: 1 });
    expect(first.lastError).to.match(/You exceeded your current quota/);
  });

  it("answers an error event that opens a 200 stream and is not the token's fault as an error, the token unmarked", async () => {
    nock(UPSTREAM)
      .post('/v1/chat/completions')
      .reply(200, 'data: {"error":{"message":"This model\'s maximum context length is 128000 tokens.","type":"invalid_request_error","code":400}}\n\n', SSE_HEADERS);
    const res = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1-mini', { stream: true }));
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.match(/maximum context length/);
    expect((await adminView(gw)).credentials[0]).to.include({ state: 'healthy', errors: 1 });
  });

  it("judges an error that follows a stream's role-only opening chunk, or a 200 JSON error envelope, like a failed call", async () => {
    const stream = fixtureBytes('openai-chat/stream-basic.sse');
    const roleThenQuota =
      'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n' +
      'data: {"error":{"message":"You exceeded your current quota, please check your plan.","type":"insufficient_quota","code":"insufficient_quota"}}\n\n';
    nock(UPSTREAM).post('/v1/chat/completions').matchHeader('authorization', bearer(TOKENS.first)).reply(200, () => replayChunks(Buffer.from(roleThenQuota), 11), SSE_HEADERS);
    nock(UPSTREAM).post('/v1/chat/completions').matchHeader('authorization', bearer(TOKENS.second)).reply(200, () => replayChunks(stream, 9), SSE_HEADERS);
    const res = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1-mini', { stream: true }));
    expect(Buffer.from(await res.arrayBuffer()).equals(stream)).to.equal(true);
    expect((await adminView(gw)).credentials[0]).to.include({ state: 'limit_marked', errors: 1 });

    // A whole answer: the JSON envelope in a 200, on the next token in turn; the one after serves.
    nock(UPSTREAM).post('/v1/chat/completions').reply(200, { error: { message: 'You exceeded your current quota, please check your plan.', type: 'insufficient_quota' } });
    nock(UPSTREAM).post('/v1/chat/completions').reply(200, fixtureJson('openai-chat/response-basic.json'));
    const whole = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1-mini'));
    expect(whole.status).to.equal(200);
    expect(((await whole.json()) as { choices: unknown[] }).choices).to.have.length(1);
    expect((await adminView(gw)).credentials.filter((credential) => credential.state === 'limit_marked')).to.have.length(2);
  });

  it("answers a request error in a 200 stream's first event with its own status (a 400 context overflow, not a 502)", async () => {
    nock(UPSTREAM)
      .post('/v1/chat/completions')
      .reply(200, 'data: {"error":{"message":"This model\'s maximum context length is 128000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}\n\n', SSE_HEADERS);
    const res = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1-mini', { stream: true }));
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('context_length_exceeded');
  });

  it('replaces a suspended token in the rotation set and serves the request', async () => {
    nock(UPSTREAM)
      .post('/v1/chat/completions')
      .matchHeader('authorization', bearer(TOKENS.first))
      .reply(401, { error: { message: 'Your account has been suspended', type: 'invalid_request_error', param: null, code: 'account_deactivated' } });
    nock(UPSTREAM).post('/v1/chat/completions').matchHeader('authorization', bearer(TOKENS.second)).reply(200, fixtureJson('openai-chat/response-basic.json'));
    const res = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1'));
    expect(res.status).to.equal(200);
    const view = await adminView(gw);
    expect(view.credentials.map(({ masked, state, inRotation }) => ({ masked, state, inRotation }))).to.deep.equal([
      { masked: '...0001', state: 'abnormal', inRotation: false },
      { masked: '...0002', state: 'healthy', inRotation: true },
      { masked: '...0003', state: 'healthy', inRotation: true },
      { masked: '...0004', state: 'healthy', inRotation: true },
    ]);
  });

  it('takes no token out of service for a model name the upstream echoes escaped in its JSON (\\", \\\\, \\u00e9)', async () => {
    for (const model of ['acct-suspended"', 'acct\\suspended', 'accté-suspended']) {
      const escaped = JSON.stringify({ error: { message: `The model \`${model}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', param: null, code: 'model_not_found' } }).replace(/é/g, '\\u00e9');
      nock(UPSTREAM).post('/v1/chat/completions').reply(404, escaped, { 'content-type': 'application/json' });
      const res = await post(gw, '/pool/v1/chat/completions', chat(model));
      expect(res.status, model).to.equal(404);
    }
    expect((await adminView(gw)).credentials.map((credential) => credential.state)).to.deep.equal(['healthy', 'healthy', 'healthy', 'healthy']);
    expect(nock.pendingMocks()).to.deep.equal([]);
  });

  it('answers 429 in the OpenAI shape with retry-after when every token of the set is limited', async () => {
    nock(UPSTREAM).post('/v1/chat/completions').times(3).reply(429, fixtureJson('openai-chat/error-429-insufficient-quota.json'));
    const res = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1'));
    expect(res.status).to.equal(429);
    expect(Number(res.headers.get('retry-after'))).to.be.within(3590, 3600);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.message).to.match(/^every token in the rotation set of pool "pool" is rate-limited; retry in 3600s$/);
    // The spare token outside the set is not used for a limit (no replacement), only for an anomaly.
    expect((await adminView(gw)).credentials[3]).to.include({ inRotation: false, requests: 0 });
  });

  it('answers 503 in the messages shape when no healthy token is left', async () => {
    const suspended = { error: { message: 'Your account has been suspended', type: 'invalid_request_error', param: null, code: 'account_deactivated' } };
    nock(UPSTREAM).post('/v1/chat/completions').times(4).reply(401, suspended);
    const gw1 = await startGateway(poolConfig({ maxAttempts: 10 }));
    try {
      const res = await post(gw1, '/pool/v1/messages', { model: 'gpt-4.1', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
      expect(res.status).to.equal(503);
      const body = (await res.json()) as { type: string; error: { type: string; message: string } };
      expect(body.type).to.equal('error');
      expect(body.error.message).to.equal('no healthy token is left in pool "pool" (4 of 4 tokens are abnormal)');
    } finally {
      await gw1.close();
    }
  });

  it('passes an error that is not the token\'s fault to the client, unmarked and unretried', async () => {
    const upstream = nock(UPSTREAM).post('/v1/chat/completions').reply(400, { error: { message: "Invalid 'max_output_tokens': integer below minimum value.", type: 'invalid_request_error', param: 'max_output_tokens', code: 'integer_below_min_value' } });
    const res = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1'));
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.match(/^Invalid 'max_output_tokens'/);
    expect(upstream.isDone()).to.equal(true);
    expect((await adminView(gw)).credentials[0]).to.include({ state: 'healthy', errors: 1 });
  });

  it('serves a -max model with the premium token only, with the suffix stripped', async () => {
    let seen: { model?: string } = {};
    nock(UPSTREAM)
      .post('/v1/chat/completions')
      .matchHeader('authorization', bearer(TOKENS.premium))
      .twice()
      .reply((_uri, body) => {
        seen = body as { model?: string };
        return [200, fixtureJson('openai-chat/response-basic.json')];
      });
    expect((await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1-max'))).status).to.equal(200);
    expect(seen.model).to.equal('gpt-4.1');
    expect((await post(gw, '/pool/v1/chat/completions', chat('gpt-5'))).status).to.equal(200);
    expect(seen.model).to.equal('gpt-5');
  });

  it('answers 403 naming the reason when no premium token is usable', async () => {
    nock(UPSTREAM).post('/v1/chat/completions').reply(401, { error: { message: 'Your account has been suspended' } });
    const res = await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1-max'));
    expect(res.status).to.equal(403);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).to.equal('model "gpt-4.1-max" needs a premium token (a -max model), and none of the pool\'s 1 premium token is usable (1 abnormal)');
  });

  it('translates a Gemini request to chat completions, with the model rules applied', async () => {
    let seen: Record<string, unknown> = {};
    nock(UPSTREAM).post('/v1/chat/completions').reply((_uri, body) => {
      seen = body as Record<string, unknown>;
      return [200, fixtureJson('openai-chat/response-basic.json')];
    });
    const res = await post(gw, '/pool/v1beta/models/gpt-4.1-thinking:generateContent', fixtureJson('gemini/request-basic.json'), { 'x-goog-api-key': TEST_LICENSE });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> };
    expect(body.candidates[0].content.parts[0].text).to.equal('Hello, nice to meet you!');
    expect(seen).to.include({ model: 'gpt-4.1', reasoning_effort: 'high' });
  });

  it('translates a responses request and streams the answer back as response events', async () => {
    nock(UPSTREAM)
      .post('/v1/chat/completions')
      .reply(200, () => replayChunks(fixtureBytes('openai-chat/stream-basic.sse'), 13), SSE_HEADERS);
    const res = await post(gw, '/pool/v1/responses', { model: 'gpt-4.1-mini', input: 'hi', stream: true });
    expect(res.status).to.equal(200);
    const text = await res.text();
    expect(text).to.include('event: response.output_text.delta');
    expect(text).to.include('event: response.completed');
  });

  it('lists the upstream models, the extras, and their -thinking / -max variants', async () => {
    nock(UPSTREAM)
      .get('/v1/models')
      .matchHeader('authorization', bearer(TOKENS.first))
      .reply(200, { object: 'list', data: [{ id: 'gpt-4.1', object: 'model', created: 1, owned_by: 'system' }] });
    const res = await fetch(`${gw.url}/pool/v1/models`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } });
    const body = (await res.json()) as { object: string; data: Array<{ id: string; owned_by: string }> };
    expect(body.object).to.equal('list');
    expect(body.data.map((model) => model.id)).to.deep.equal([
      'gpt-4.1', 'gpt-4.1-thinking', 'gpt-4.1-max', 'extra-model', 'extra-model-thinking', 'extra-model-max',
    ]);
    expect(body.data[1].owned_by).to.equal('system');
  });

  it('estimates count_tokens and :countTokens without an upstream call (Claude Code and Gemini CLI call them)', async () => {
    const any = nock(UPSTREAM).post(/.*/).reply(200, {});
    const messages = await post(gw, '/pool/v1/messages/count_tokens', { model: 'gpt-4.1', messages: [{ role: 'user', content: 'how many tokens is this?' }] });
    expect(messages.status).to.equal(200);
    expect(((await messages.json()) as { input_tokens: number }).input_tokens).to.be.greaterThan(0);
    const gemini = await post(gw, '/pool/v1beta/models/gpt-4.1:countTokens', { contents: [{ role: 'user', parts: [{ text: 'how many tokens is this?' }] }] });
    expect(gemini.status).to.equal(200);
    expect(((await gemini.json()) as { totalTokens: number }).totalTokens).to.be.greaterThan(0);
    expect(any.isDone()).to.equal(false);
    nock.cleanAll();
  });

  it('keeps /admin/pools behind the admin key and resets a token to healthy', async () => {
    expect((await fetch(`${gw.url}/admin/pools/pool`, { headers: { authorization: `Bearer ${TEST_LICENSE}` } })).status).to.equal(401);
    nock(UPSTREAM).post('/v1/chat/completions').reply(401, { error: { message: `Invalid token ${TOKENS.first}` } });
    nock(UPSTREAM).post('/v1/chat/completions').reply(200, fixtureJson('openai-chat/response-basic.json'));
    await post(gw, '/pool/v1/chat/completions', chat('gpt-4.1'));
    const before = await adminView(gw);
    expect(before.credentials[0]).to.include({ state: 'abnormal', lastError: 'HTTP 401: Invalid token ...0001' });
    expect(JSON.stringify(before)).not.to.match(/acct-|first-token|second-token/);

    const reset = await fetch(`${gw.url}/admin/pools/pool/tokens/${before.credentials[0].id}/reset`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
    expect(reset.status).to.equal(200);
    expect((await adminView(gw)).credentials[0]).to.include({ state: 'healthy', inRotation: false });
    const unknown = await fetch(`${gw.url}/admin/pools/pool/tokens/nope/reset`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
    expect(unknown.status).to.equal(404);
  });

  it('stops start-up on an invalid pattern, naming the field', async () => {
    const error = await startGateway(poolConfig({ limitPatterns: 'rate limit\n(unclosed' })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).to.match(/platforms\.pool\.limitPatterns \(line 2\): invalid regular expression "\(unclosed"/);
  });

  it('stops start-up on a bad option, naming the field', async () => {
    const error = await startGateway(poolConfig({ rotation: 0 })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).to.match(/platforms\.pool .*rotation/);
  });
});
