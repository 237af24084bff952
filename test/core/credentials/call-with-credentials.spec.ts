import { expect } from 'chai';
import { Readable } from 'node:stream';
import winston from 'winston';
import { callWithCredentials, type FailureVerdict } from '../../../core/credentials/call-with-credentials';
import { createCredentialPool } from '../../../core/credentials/create-credential-pool';
import { classifyUpstreamFailure } from '../../../core/errors/classify-upstream-failure';
import { GatewayError, isGatewayError } from '../../../core/errors/gateway-error';
import type { RequestContext, UpstreamFailure, UpstreamResponse } from '../../../core/hooks/plugin-api';
import { createMemoryStore } from '../../../core/store/memory-store';

const silent = winston.createLogger({ silent: true });
/** Each request has its own context (the credential it used is in its state). */
const newCtx = (): RequestContext => ({ state: new Map() }) as unknown as RequestContext;

function answer(status: number, body: unknown = {}): UpstreamResponse {
  return { status, headers: {}, body: Readable.from([Buffer.from(JSON.stringify(body))]) };
}

function judgeByStatus(failure: UpstreamFailure): FailureVerdict {
  if (failure.status === 429) return { action: 'cooldown', untilMs: Date.now() + 60_000 };
  if (failure.status === 401) return { action: 'disable' };
  if (failure.status === 403) return { action: 'next' };
  return { action: 'fail' };
}

function setup(keys: string[], answers: Record<string, number>, extra: { noun?: string; now?: () => number; passStatuses?: number[] } = {}) {
  const pool = createCredentialPool({ platform: 'p', store: createMemoryStore(), log: silent, credentials: keys.map((key) => ({ kind: 'apiKey', secret: key, key })) });
  const calls: string[] = [];
  const run = () =>
    callWithCredentials({
      pool,
      ctx: newCtx(),
      maxAttempts: 3,
      send: async (entry) => {
        calls.push(entry.secret);
        return answer(answers[entry.secret] ?? 200, { error: { message: `status ${answers[entry.secret]}` } });
      },
      classify: (failure) => classifyUpstreamFailure(failure),
      judge: judgeByStatus,
      ...extra,
    });
  return { pool, calls, run };
}

describe('callWithCredentials', () => {
  it('retries a rate-limited and a broken credential on the next one', async () => {
    const { pool, calls, run } = setup(['limited-key-01', 'banned-key-002', 'good-key-0003'], { 'limited-key-01': 429, 'banned-key-002': 401 });
    const response = await run();
    expect(response.status).to.equal(200);
    expect(calls).to.deep.equal(['limited-key-01', 'banned-key-002', 'good-key-0003']);
    expect(pool.view().credentials.map((c) => c.state)).to.deep.equal(['cooling_down', 'invalid', 'healthy']);
    calls.length = 0;
    await run();
    expect(calls).to.deep.equal(['good-key-0003']);
  });

  it('answers a pass status as it came, unjudged, on the first credential', async () => {
    const { pool, calls, run } = setup(['range-key-0001', 'other-key-0002'], { 'range-key-0001': 416 }, { passStatuses: [416] });
    const response = await run();
    expect([response.status, calls]).to.deep.equal([416, ['range-key-0001']]);
    expect(pool.view().credentials.map((c) => c.state)).to.deep.equal(['healthy', 'healthy']);
  });

  it('answers 429 with retry-after when every credential is cooling down', async () => {
    const { run } = setup(['limited-key-01', 'limited-key-02'], { 'limited-key-01': 429, 'limited-key-02': 429 });
    const error = await run().catch((e: unknown) => e);
    expect(isGatewayError(error) && error.status).to.equal(429);
    expect((error as GatewayError).retryAfterMs).to.be.greaterThan(50_000);
    expect((error as GatewayError).message).to.equal('every credential of platform "p" is rate-limited; retry later (upstream: status 429)');
  });

  it('quotes what the credentials were marked with to a later request, which makes no call of its own', async () => {
    const { run, calls } = setup(['limited-key-01', 'limited-key-02'], { 'limited-key-01': 429, 'limited-key-02': 429 });
    await run().catch(() => undefined);
    calls.length = 0;
    const later = (await run().catch((e: unknown) => e)) as GatewayError;
    expect(calls).to.deep.equal([]);
    expect(later.message).to.equal('every credential of platform "p" is rate-limited; retry later (upstream: status 429)');
    const broken = setup(['banned-key-001'], { 'banned-key-001': 401 });
    await broken.run().catch(() => undefined);
    expect(((await broken.run().catch((e: unknown) => e)) as GatewayError).message).to.equal('no healthy credential is left on platform "p" (upstream: status 401)');
  });

  it('keeps the upstream 429 type and code (a used-up quota) for later requests, which make no call, and after a restart', async () => {
    const store = createMemoryStore();
    const quota = { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } };
    const calls: string[] = [];
    const makePool = () => createCredentialPool({ platform: 'p', store, log: silent, credentials: ['quota-key-0001', 'quota-key-0002'].map((key) => ({ kind: 'apiKey', secret: key, key })) });
    const run = (pool: ReturnType<typeof makePool>) =>
      callWithCredentials({ pool, ctx: newCtx(), maxAttempts: 3, send: async (entry) => (calls.push(entry.secret), answer(429, quota)), classify: (failure) => classifyUpstreamFailure(failure), judge: judgeByStatus }).then(
        () => expect.fail("answered"),
        (e: unknown) => e as GatewayError,
      );
    const words = (error: GatewayError) => [error.status, error.upstreamType, error.upstreamCode];
    const pool = makePool();
    expect(words(await run(pool))).to.deep.equal([429, 'insufficient_quota', 'insufficient_quota']);
    expect(calls).to.have.length(2);
    expect(words(await run(pool))).to.deep.equal([429, 'insufficient_quota', 'insufficient_quota']);
    const restarted = makePool();
    await restarted.load();
    expect(words(await run(restarted))).to.deep.equal([429, 'insufficient_quota', 'insufficient_quota']);
    expect(calls).to.have.length(2);
  });

  it('leaves the round-robin turn where the request left it when no credential could serve it', async () => {
    const answers: Record<string, number> = { 'refusing-key-1': 403, 'refusing-key-2': 403, 'refusing-key-3': 403 };
    const { run, calls } = setup(Object.keys(answers), answers);
    await run().catch(() => undefined);
    for (const key of Object.keys(answers)) answers[key] = 200;
    calls.length = 0;
    await run();
    expect(calls).to.deep.equal(['refusing-key-1']);
  });

  it('names the credential as told and reckons retry-after on the clock given', async () => {
    const { run } = setup(['limited-key-01'], { 'limited-key-01': 429 }, { noun: 'API key', now: () => Date.now() + 30_000 });
    const error = (await run().catch((e: unknown) => e)) as GatewayError;
    expect(error.message).to.match(/^every API key of platform "p" is rate-limited/);
    expect(error.retryAfterMs).to.be.within(25_000, 30_000);
  });

  it('answers 503 when no credential is healthy', async () => {
    const { run } = setup(['banned-key-001'], { 'banned-key-001': 401 });
    const error = await run().catch((e: unknown) => e);
    expect((error as GatewayError).code).to.equal('GW_NO_CREDENTIAL');
    expect((error as GatewayError).message).to.equal('no healthy credential is left on platform "p" (upstream: status 401)');
  });

  it('gives a request error straight to the client without marking the credential', async () => {
    const { pool, calls, run } = setup(['good-key-0001', 'good-key-0002'], { 'good-key-0001': 400 });
    const error = await run().catch((e: unknown) => e);
    expect((error as GatewayError).status).to.equal(400);
    expect(calls).to.have.length(1);
    expect(pool.view().credentials[0].state).to.equal('healthy');
  });

  it('tries the next credential on a `next` verdict without marking the one refused', async () => {
    const { pool, calls, run } = setup(['narrow-key-01', 'wide-key-0002'], { 'narrow-key-01': 403 });
    expect((await run()).status).to.equal(200);
    expect(calls).to.deep.equal(['narrow-key-01', 'wide-key-0002']);
    expect(pool.view().credentials.map((c) => c.state)).to.deep.equal(['healthy', 'healthy']);
  });

  it('gives the upstream error to the client when every credential answers `next`', async () => {
    const { pool, calls, run } = setup(['narrow-key-01', 'narrow-key-02'], { 'narrow-key-01': 403, 'narrow-key-02': 403 });
    const error = await run().catch((e: unknown) => e);
    expect(isGatewayError(error) && error.status).to.equal(403);
    expect((error as GatewayError).message).to.equal('status 403');
    expect(calls).to.deep.equal(['narrow-key-01', 'narrow-key-02']);
    expect(pool.view().credentials.map((c) => c.state)).to.deep.equal(['healthy', 'healthy']);
  });
});
