import { Readable } from 'node:stream';
import { expect } from 'chai';
import { isGatewayError, GatewayError, type Store, type UpstreamResponse } from '@gateway/core';
import { createMemoryStore } from '../../../core/store/memory-store';
import { callWithPoolTokens, type PoolCall } from '../src/call-with-pool-tokens';
import { compilePatterns } from '../src/compile-patterns';
import { DEFAULT_ANOMALY_PATTERNS, DEFAULT_LIMIT_PATTERNS } from '../src/default-patterns';
import type { PoolModel } from '../src/parse-pool-model';
import { idOf, makeRotation, members, OPENAI_ERRORS, upstreamAnswer, type Kit, type TokenSpec } from './pool-test-kit';

const OK = { id: 'chatcmpl-1', choices: [] };
type Script = Record<string, (attempt: number) => UpstreamResponse>;

const limited = (): UpstreamResponse => upstreamAnswer(429, OPENAI_ERRORS.rateLimit, { 'retry-after': '20' });
const quota = (): UpstreamResponse => upstreamAnswer(429, OPENAI_ERRORS.quota);
const banned = (): UpstreamResponse => upstreamAnswer(401, OPENAI_ERRORS.suspended);
const ok = (): UpstreamResponse => upstreamAnswer(200, OK);

/** A pool whose upstream answers per token by `script` (default 200), recording which token each call used. */
async function setup(tokens: TokenSpec[], script: Script, options: { size?: number; maxAttempts?: number; requestBody?: Buffer } = {}) {
  const kit = await makeRotation(tokens, options.size ?? tokens.length);
  const sent: string[] = [];
  const counts = new Map<string, number>();
  const call = (model?: { name: string; premium?: PoolModel['premium'] }): Promise<UpstreamResponse> =>
    callWithPoolTokens({ ...request(kit, sent, counts, script, options.maxAttempts ?? 3, model), requestBody: options.requestBody });
  return { ...kit, sent, call };
}

function request(kit: Kit, sent: string[], counts: Map<string, number>, script: Script, maxAttempts: number, model?: PoolCall['model']): PoolCall {
  return {
    rotation: kit.rotation,
    ctx: { state: new Map(), signal: new AbortController().signal },
    model,
    settings: {
      patterns: { limit: compilePatterns(undefined, DEFAULT_LIMIT_PATTERNS, 'l'), anomaly: compilePatterns(undefined, DEFAULT_ANOMALY_PATTERNS, 'a') },
      maxAttempts,
      cooldownMs: 3_600_000,
      secrets: kit.rotation.pool.entries.map((entry) => entry.secret),
      now: () => kit.clock.now,
    },
    async send(token) {
      sent.push(token.secret);
      const attempt = (counts.get(token.secret) ?? 0) + 1;
      counts.set(token.secret, attempt);
      return (script[token.secret] ?? ok)(attempt);
    },
  };
}

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isGatewayError(error)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

const T = ['tok-limited-aaaa-0001', 'tok-banned-bbbb-0002', 'tok-good-cccc-0003', 'tok-good-dddd-0004', 'tok-quota-eeee-0005'];

describe('token-pool callWithPoolTokens', () => {
  it('a rate-limited token is limit-marked (cooldown from retry-after) and the request served by the next token', async () => {
    const { rotation, clock, sent, call } = await setup([T[0], T[2]], { [T[0]]: limited });
    const response = await call();
    expect(response.status).to.equal(200);
    expect(sent).to.deep.equal([T[0], T[2]]);
    const status = rotation.pool.status(idOf(rotation, T[0]))!;
    expect(status).to.include({ state: 'limit_marked', cooldownUntil: clock.now + 20_000, errors: 1 });
    expect(status.lastError).to.match(/^HTTP 429: Rate limit reached/);
    expect(members(rotation)).to.deep.equal([T[0], T[2]]);
  });

  it('a quota error without a reset hint is limit-marked for cooldownSeconds', async () => {
    const { rotation, clock, call } = await setup([T[4], T[2]], { [T[4]]: quota });
    await call();
    expect(rotation.pool.status(idOf(rotation, T[4]))).to.include({ state: 'limit_marked', cooldownUntil: clock.now + 3_600_000 });
  });

  it('a suspended token is marked abnormal, leaves the set, a new token joins, and the request is served', async () => {
    const { rotation, sent, call } = await setup([T[1], T[2], T[3]], { [T[1]]: banned }, { size: 2 });
    const response = await call();
    expect(response.status).to.equal(200);
    expect(sent).to.deep.equal([T[1], T[2]]);
    expect(rotation.pool.state(idOf(rotation, T[1]))).to.equal('abnormal');
    expect(members(rotation)).to.deep.equal([T[2], T[3]]);
  });

  it('an error that is not the token\'s fault goes to the client unchanged, with no retry and no mark', async () => {
    const { rotation, sent, call } = await setup([T[2], T[3]], { [T[2]]: () => upstreamAnswer(400, OPENAI_ERRORS.badRequest) });
    const error = await failure(call());
    expect(error.status).to.equal(400);
    expect(error.message).to.match(/^Invalid 'max_output_tokens'/);
    expect(sent).to.deep.equal([T[2]]);
    expect(rotation.pool.status(idOf(rotation, T[2]))).to.include({ state: 'healthy', errors: 1 });
  });

  it('a timeout or a broken connection goes to the client and counts as the token\'s error, unmarked; a client that left counts nothing', async () => {
    const timeout = (): UpstreamResponse => {
      throw new GatewayError('GW_UPSTREAM_TIMEOUT', 'upstream total timeout after 2000ms (pool.test)');
    };
    const { rotation, sent, call } = await setup([T[2], T[3]], { [T[2]]: timeout });
    const error = await failure(call());
    expect(error.code).to.equal('GW_UPSTREAM_TIMEOUT');
    expect(sent).to.deep.equal([T[2]]);
    expect(rotation.pool.status(idOf(rotation, T[2]))).to.include({ state: 'healthy', errors: 1, lastError: 'upstream total timeout after 2000ms (pool.test)' });

    const kit = await makeRotation([T[2]], 1);
    const left = new AbortController();
    left.abort();
    const aborted = request(kit, [], new Map(), { [T[2]]: timeout }, 3);
    await failure(callWithPoolTokens({ ...aborted, ctx: { state: new Map(), signal: left.signal } }));
    expect(kit.rotation.pool.status(idOf(kit.rotation, T[2]))).to.include({ state: 'healthy', errors: 0 });
  });

  it('an error quoting what the client sent (a model, a parameter key) matching a pattern marks no token', async () => {
    const notFound = { error: { message: 'The model `my-suspended-model` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } };
    const badKey = { error: { message: "Invalid key in 'logit_bias': banned-rate-limit. You should only be submitting non-negative integers.", type: 'invalid_request_error', param: 'logit_bias', code: null } };
    for (const [body, status, answer] of [
      [{ model: 'my-suspended-model', messages: [{ role: 'user', content: 'hi' }] }, 404, notFound],
      [{ model: 'gpt-4o', logit_bias: { 'banned-rate-limit': 5 }, messages: [] }, 400, badKey],
    ] as const) {
      const { rotation, sent, call } = await setup([T[2], T[3]], { [T[2]]: () => upstreamAnswer(status, answer) }, { requestBody: Buffer.from(JSON.stringify(body)) });
      const error = await failure(call());
      expect(error.status).to.equal(status);
      expect(sent).to.deep.equal([T[2]]);
      expect(rotation.pool.status(idOf(rotation, T[2]))).to.include({ state: 'healthy', errors: 1 });
    }
    // The upstream's own words still count: the same account suspension, whatever the request said.
    const { rotation, call } = await setup([T[2], T[3]], { [T[2]]: () => upstreamAnswer(403, { error: { message: 'Your account is suspended' } }) }, { requestBody: Buffer.from('{"model":"gpt-4o"}') });
    expect((await call()).status).to.equal(200);
    expect(rotation.pool.status(idOf(rotation, T[2]))).to.include({ state: 'abnormal' });
  });

  it('stops after maxAttempts calls and says so, even when tokens are left', async () => {
    const tokens = ['tok-limited-0000001', 'tok-limited-0000002', 'tok-limited-0000003', T[2]];
    const { sent, call } = await setup(tokens, Object.fromEntries(tokens.slice(0, 3).map((token) => [token, limited])), { maxAttempts: 2 });
    const error = await failure(call());
    expect(sent).to.have.length(2);
    expect(error.status).to.equal(429);
    expect(error.message).to.match(/^gave up after 2 attempts on pool "pool".*last upstream error: Rate limit reached/);
  });

  it('answers 429 with the soonest cooldown when every token of the set is limited', async () => {
    const { clock, sent, call } = await setup([T[0], T[4]], { [T[0]]: limited, [T[4]]: quota });
    const error = await failure(call());
    expect(error.code).to.equal('GW_RATE_LIMITED');
    expect(error.retryAfterMs).to.equal(20_000);
    expect(error.message).to.equal('every token in the rotation set of pool "pool" is rate-limited; retry in 20s');
    clock.now += 20_000;
    sent.length = 0;
    expect((await failure(call())).status).to.equal(429);
    expect(sent).to.deep.equal([T[0]]); // its cooldown over, the token is tried again; the other one still rests
  });

  it('keeps a used-up quota\'s insufficient_quota type and code when every token is limited, on later requests too', async () => {
    const { sent, call } = await setup([T[4]], { [T[4]]: quota });
    const words = (error: GatewayError) => [error.status, error.upstreamType, error.upstreamCode];
    expect(words(await failure(call()))).to.deep.equal([429, 'insufficient_quota', 'insufficient_quota']);
    expect(words(await failure(call()))).to.deep.equal([429, 'insufficient_quota', 'insufficient_quota']);
    expect(sent).to.deep.equal([T[4]]);
  });

  it("keeps insufficient_quota when the account's quota ends in a 402, or in a 200 stream's first event", async () => {
    const words = (error: GatewayError) => [error.status, error.upstreamType, error.upstreamCode];
    const paid = await setup([T[4]], { [T[4]]: () => upstreamAnswer(402, OPENAI_ERRORS.quota) });
    expect(words(await failure(paid.call()))).to.deep.equal([429, 'insufficient_quota', 'insufficient_quota']);
    const inStream = (): UpstreamResponse => ({ ...upstreamAnswer(200, {}), headers: { 'content-type': 'text/event-stream' }, body: Readable.from([Buffer.from(`data: ${JSON.stringify(OPENAI_ERRORS.quota)}\n\n`)]) });
    const streamed = await setup([T[4]], { [T[4]]: inStream });
    expect(words(await failure(streamed.call()))).to.deep.equal([429, 'insufficient_quota', 'insufficient_quota']);
  });

  it('answers 503 when no healthy token is left', async () => {
    const { call } = await setup([T[1]], { [T[1]]: banned });
    const error = await failure(call());
    expect(error.code).to.equal('GW_NO_CREDENTIAL');
    expect(error.status).to.equal(503);
    expect(error.message).to.equal('no healthy token is left in pool "pool" (1 of 1 token is abnormal)');
    expect(error.final).to.equal(true);
    expect((await failure(call())).status).to.equal(503);
  });

  it('skips a limit-marked token without calling it, and uses it again once its cooldown ended', async () => {
    const { clock, sent, call } = await setup([T[0], T[2]], { [T[0]]: (attempt) => (attempt === 1 ? limited() : ok()) });
    await call();
    sent.length = 0;
    await call();
    await call();
    expect(sent).to.deep.equal([T[2], T[2]]);
    clock.now += 20_000;
    await call();
    await call();
    expect(sent.slice(2)).to.have.members([T[0], T[2]]);
  });

  describe('premium models', () => {
    const maxModel = { name: 'gpt-4.1-max', premium: 'max-suffix' as const };

    it('are served by premium tokens only', async () => {
      const { sent, call } = await setup([T[2], { token: T[3], tier: 'premium' }], {});
      await call(maxModel);
      await call(maxModel);
      expect(sent).to.deep.equal([T[3], T[3]]);
    });

    it('answer 403 naming the reason when the pool has no premium token', async () => {
      const { sent, call } = await setup([T[2]], {});
      const error = await failure(call(maxModel));
      expect(error.status).to.equal(403);
      expect(error.message).to.equal('model "gpt-4.1-max" needs a premium token (a -max model), and pool "pool" has none');
      expect(sent).to.deep.equal([]);
    });

    it('answer 403 when the premium tokens are abnormal or outside the rotation set', async () => {
      const { call } = await setup([T[2], { token: T[1], tier: 'premium' }, { token: T[3], tier: 'premium' }], { [T[1]]: banned }, { size: 2 });
      await call({ name: 'gpt-5', premium: 'premium-model' }).catch(() => undefined);
      // T[1] is abnormal now; T[3] joined the set in its place, so premium still works.
      expect((await call({ name: 'gpt-5', premium: 'premium-model' })).status).to.equal(200);

      const other = await setup([T[2], T[0], { token: T[3], tier: 'premium' }], {}, { size: 2 });
      const error = await failure(other.call({ name: 'gpt-5', premium: 'premium-model' }));
      expect(error.status).to.equal(403);
      expect(error.message).to.equal(
        'model "gpt-5" needs a premium token (listed in premiumModels), and none of the pool\'s 1 premium token is usable (1 outside the rotation set)',
      );
    });

    it('answer 429 when the premium tokens in the set are only limited', async () => {
      const { call } = await setup([T[2], { token: T[0], tier: 'premium' }], { [T[0]]: limited });
      const error = await failure(call(maxModel));
      expect(error.status).to.equal(429);
      expect(error.message).to.match(/^every premium token in the rotation set/);
    });
  });

  it('masks a token the upstream echoes in its error, in the client error and the stored lastError', async () => {
    const token = 'acct-alice-secret-9876';
    const { rotation, call } = await setup([token], { [token]: () => upstreamAnswer(401, { error: { message: `Invalid API key: ${token}` } }) });
    const error = await failure(call());
    const status = rotation.pool.status(idOf(rotation, token))!;
    expect(status.lastError).to.equal('HTTP 401: Invalid API key: ...9876');
    expect(JSON.stringify(error.cause)).to.not.include('alice');
    expect(String((error.cause as Error).message)).to.equal('Invalid API key: ...9876');
  });

  it('masks a token the upstream echoes JSON-escaped (acct\\/…), in the client error and the stored lastError', async () => {
    const token = 'acct/Zk9qW2+xYb7/Lm3R0001';
    const escaped = token.replace(/\//g, '\\/');
    const raw = (): UpstreamResponse => upstreamAnswer(401, `{"error":{"message":"Invalid token: ${escaped}"}}`);
    const { rotation, call } = await setup([token], { [token]: raw });
    const error = await failure(call());
    expect(rotation.pool.status(idOf(rotation, token))!.lastError).to.equal('HTTP 401: Invalid token: ...0001');
    expect(String((error.cause as Error).message)).to.equal('Invalid token: ...0001');
  });

  it('under concurrency, never hands out a token once its abnormal mark is being written, and keeps the set full', async () => {
    const tokens = ['tok-banned-000000001', 'tok-good-0000000002', 'tok-good-0000000003', 'tok-good-0000000004', 'tok-good-0000000005'];
    const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
    // A slow store widens the window between "marked" and "durable", where a careless pool would still hand it out.
    const inner = createMemoryStore();
    const markedAbnormal = new Set<string>();
    const store: Store = {
      ...inner,
      async set(namespace, key, value, options) {
        if (typeof value === 'object' && value !== null && (value as { state?: unknown }).state === 'abnormal') markedAbnormal.add(key);
        await delay(5);
        return inner.set(namespace, key, value, options);
      },
    };
    const kit = await makeRotation(tokens, 2, store);
    const violations: string[] = [];
    const sent: string[] = [];
    const runOne = async (i: number): Promise<number> => {
      await delay(i % 10); // staggered arrivals, so some requests pick a token while the mark is being written
      const call = request(kit, sent, new Map(), { [tokens[0]]: banned }, 3);
      const response = await callWithPoolTokens({
        ...call,
        async send(token) {
          if (markedAbnormal.has(token.id)) violations.push(token.secret);
          await delay(i % 4);
          return call.send(token);
        },
      });
      return response.status;
    };
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => runOne(i)));
    expect(statuses.every((status) => status === 200)).to.equal(true);
    expect(violations).to.deep.equal([]);
    expect(sent.filter((token) => token === tokens[0]).length).to.be.greaterThan(0);
    expect(kit.rotation.pool.state(idOf(kit.rotation, tokens[0]))).to.equal('abnormal');
    expect(members(kit.rotation)).to.deep.equal([tokens[1], tokens[2]]);
  });
});
