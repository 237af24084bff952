import { expect } from 'chai';
import { createMemoryStore } from '../../../core/store/memory-store';
import { idOf, makeRotation, members } from './pool-test-kit';

const TOKENS = ['tok-aaaaaaaa-0001', 'tok-bbbbbbbb-0002', 'tok-cccccccc-0003', 'tok-dddddddd-0004'];

describe('token-pool createRotationSet', () => {
  it('puts the first `rotation` tokens in the set and hands them out round-robin', async () => {
    const { rotation } = await makeRotation(TOKENS, 2);
    expect(members(rotation)).to.deep.equal(TOKENS.slice(0, 2));
    const picked = [1, 2, 3, 4].map(() => rotation.acquire()!.secret);
    expect(picked).to.deep.equal([TOKENS[0], TOKENS[1], TOKENS[0], TOKENS[1]]);
  });

  it('spec 3 row 1: a limit mark keeps the token in the set, skipped until the cooldown ends, with no replacement', async () => {
    const { rotation, clock } = await makeRotation(TOKENS, 2);
    const limited = idOf(rotation, TOKENS[0]);
    await rotation.markLimited(limited, clock.now + 60_000, 'HTTP 429: rate limit');
    expect(rotation.pool.state(limited)).to.equal('limit_marked');
    expect(members(rotation)).to.deep.equal(TOKENS.slice(0, 2));
    expect(new Set([1, 2, 3].map(() => rotation.acquire()!.secret))).to.deep.equal(new Set([TOKENS[1]]));

    clock.now += 60_000;
    expect(rotation.pool.state(limited)).to.equal('healthy');
    expect(new Set([1, 2, 3].map(() => rotation.acquire()!.secret))).to.deep.equal(new Set(TOKENS.slice(0, 2)));
  });

  it('spec 3 row 2: an anomaly mark takes the token out of the set and the next healthy token joins', async () => {
    const { rotation } = await makeRotation(TOKENS, 2);
    await rotation.markAbnormal(idOf(rotation, TOKENS[0]), 'HTTP 401: Your account has been suspended');
    expect(rotation.pool.state(idOf(rotation, TOKENS[0]))).to.equal('abnormal');
    expect(members(rotation)).to.deep.equal([TOKENS[1], TOKENS[2]]);
    expect(new Set([1, 2, 3, 4].map(() => rotation.acquire()!.secret))).to.deep.equal(new Set([TOKENS[1], TOKENS[2]]));
  });

  it('refills in config order and shrinks when no healthy token is left outside the set', async () => {
    const { rotation, clock } = await makeRotation(TOKENS, 2);
    await rotation.markAbnormal(idOf(rotation, TOKENS[0]), 'banned');
    await rotation.markLimited(idOf(rotation, TOKENS[2]), clock.now + 1000, 'limit');
    await rotation.markAbnormal(idOf(rotation, TOKENS[1]), 'banned');
    expect(members(rotation)).to.deep.equal([TOKENS[2], TOKENS[3]]);
    await rotation.markAbnormal(idOf(rotation, TOKENS[3]), 'banned');
    expect(members(rotation)).to.deep.equal([TOKENS[2]]);
    await rotation.markAbnormal(idOf(rotation, TOKENS[2]), 'banned');
    expect(members(rotation)).to.deep.equal([]);
    expect(rotation.acquire()).to.equal(undefined);
  });

  it('lets a limit-marked token in when no healthy one is left outside, so a shrunk set that empties serves again after its cooldown', async () => {
    const store = createMemoryStore();
    const before = await makeRotation(TOKENS.slice(0, 2), 2, store);
    await before.rotation.markLimited(idOf(before.rotation, TOKENS[1]), before.clock.now + 3000, 'HTTP 429: limit');
    // Restarted with a smaller set: the limited member is beyond it and leaves.
    const { rotation, clock } = await makeRotation(TOKENS.slice(0, 2), 1, store, before.clock);
    expect(members(rotation)).to.deep.equal([TOKENS[0]]);
    await rotation.markAbnormal(idOf(rotation, TOKENS[0]), 'HTTP 401: suspended');
    expect(members(rotation)).to.deep.equal([TOKENS[1]]);
    expect(rotation.acquire()).to.equal(undefined);
    expect(rotation.nextAvailableAt()).to.equal(clock.now + 3000);
    clock.now += 3000;
    expect(rotation.acquire()!.secret).to.equal(TOKENS[1]);
  });

  it('never lets a later limit mark downgrade an abnormal token', async () => {
    const { rotation, clock } = await makeRotation(TOKENS, 2);
    const id = idOf(rotation, TOKENS[0]);
    await rotation.markAbnormal(id, 'suspended');
    await rotation.markLimited(id, clock.now + 1000, 'rate limit');
    clock.now += 5000;
    expect(rotation.pool.state(id)).to.equal('abnormal');
    expect(rotation.pool.status(id)).to.include({ errors: 2, lastError: 'rate limit' });
  });

  it('keeps the set at its size when the same token is marked abnormal twice at once', async () => {
    const { rotation } = await makeRotation(TOKENS, 2);
    const id = idOf(rotation, TOKENS[0]);
    await Promise.all([rotation.markAbnormal(id, 'suspended'), rotation.markAbnormal(id, 'suspended')]);
    expect(members(rotation)).to.deep.equal([TOKENS[1], TOKENS[2]]);
  });

  it('limits a choice to premium tokens of the set', async () => {
    const { rotation } = await makeRotation([TOKENS[0], { token: TOKENS[1], tier: 'premium' }, { token: TOKENS[2], tier: 'premium' }], 2);
    expect([1, 2].map(() => rotation.acquire({ premium: true })!.secret)).to.deep.equal([TOKENS[1], TOKENS[1]]);
    expect(rotation.hasUsable({ premium: true })).to.equal(true);
    await rotation.markAbnormal(idOf(rotation, TOKENS[1]), 'banned');
    expect(rotation.acquire({ premium: true })!.secret).to.equal(TOKENS[2]);
  });

  it('admin reset returns a token to healthy, and it rejoins when the set has room', async () => {
    const { rotation } = await makeRotation(TOKENS.slice(0, 2), 2);
    await rotation.markAbnormal(idOf(rotation, TOKENS[0]), 'banned');
    expect(members(rotation)).to.deep.equal([TOKENS[1]]);
    expect(await rotation.reset(idOf(rotation, TOKENS[0]))).to.equal(true);
    expect(rotation.pool.state(idOf(rotation, TOKENS[0]))).to.equal('healthy');
    expect(members(rotation)).to.deep.equal(TOKENS.slice(0, 2));
    expect(await rotation.reset('no-such-id')).to.equal(false);
  });

  it('shows every token masked to its last 4 characters, with its tier, state and membership', async () => {
    const { rotation, clock } = await makeRotation([TOKENS[0], { token: TOKENS[1], tier: 'premium' }, TOKENS[2]], 2);
    await rotation.markLimited(idOf(rotation, TOKENS[1]), clock.now + 60_000, 'HTTP 429: Rate limit reached');
    const view = rotation.view();
    expect(view.platform).to.equal('pool');
    expect(view.credentials.map(({ masked, tier, state, inRotation }) => ({ masked, tier, state, inRotation }))).to.deep.equal([
      { masked: '...0001', tier: 'basic', state: 'healthy', inRotation: true },
      { masked: '...0002', tier: 'premium', state: 'limit_marked', inRotation: true },
      { masked: '...0003', tier: 'basic', state: 'healthy', inRotation: false },
    ]);
    expect(view.credentials[1]).to.include({ cooldownUntil: new Date(clock.now + 60_000).toISOString(), errors: 1, lastError: 'HTTP 429: Rate limit reached' });
    expect(JSON.stringify(view)).to.not.match(/aaaaaaaa|bbbbbbbb|cccccccc/);
  });

  describe('across a restart (same store)', () => {
    it('keeps marks, counters and the rotation set', async () => {
      const store = createMemoryStore();
      const first = await makeRotation(TOKENS, 2, store);
      first.rotation.pool.recordRequest(idOf(first.rotation, TOKENS[1]));
      await first.rotation.markAbnormal(idOf(first.rotation, TOKENS[0]), 'banned');
      await first.rotation.markLimited(idOf(first.rotation, TOKENS[1]), first.clock.now + 60_000, 'limit');
      await first.rotation.pool.flush();

      const second = await makeRotation(TOKENS, 2, store, { now: first.clock.now });
      expect(members(second.rotation)).to.deep.equal([TOKENS[1], TOKENS[2]]);
      expect(second.rotation.pool.state(idOf(second.rotation, TOKENS[0]))).to.equal('abnormal');
      expect(second.rotation.pool.state(idOf(second.rotation, TOKENS[1]))).to.equal('limit_marked');
      expect(second.rotation.pool.status(idOf(second.rotation, TOKENS[1]))).to.include({ requests: 1, errors: 1 });
    });

    it('reconciles config changes without losing the marks of tokens that remain', async () => {
      const store = createMemoryStore();
      const first = await makeRotation(TOKENS.slice(0, 3), 2, store);
      await first.rotation.markAbnormal(idOf(first.rotation, TOKENS[1]), 'banned');
      expect(members(first.rotation)).to.deep.equal([TOKENS[0], TOKENS[2]]);

      // TOKENS[0] removed from the config, TOKENS[3] added.
      const second = await makeRotation([TOKENS[1], TOKENS[2], TOKENS[3]], 2, store);
      expect(second.rotation.pool.state(idOf(second.rotation, TOKENS[1]))).to.equal('abnormal');
      expect(members(second.rotation)).to.deep.equal([TOKENS[2], TOKENS[3]]);
      expect((await store.list('credentials:pool')).length).to.equal(3);

      // Re-added later, TOKENS[0] starts afresh (its old state was dropped with it).
      const third = await makeRotation(TOKENS, 3, store);
      expect(third.rotation.pool.status(idOf(third.rotation, TOKENS[0]))).to.include({ state: 'healthy', errors: 0 });
    });

    it('shrinks the set when the configured size shrinks, keeping config order', async () => {
      const store = createMemoryStore();
      await makeRotation(TOKENS, 3, store);
      const second = await makeRotation(TOKENS, 1, store);
      expect(members(second.rotation)).to.deep.equal([TOKENS[0]]);
    });

    it('keeps healthy members first when the set shrinks: a limit-marked one leaves rather than a healthy one', async () => {
      const store = createMemoryStore();
      const first = await makeRotation(TOKENS, 3, store);
      await first.rotation.markLimited(idOf(first.rotation, TOKENS[0]), first.clock.now + 3_600_000, 'HTTP 429: insufficient_quota');
      await first.rotation.markLimited(idOf(first.rotation, TOKENS[2]), first.clock.now + 3_600_000, 'HTTP 429: insufficient_quota');

      const second = await makeRotation(TOKENS, 1, store, { now: first.clock.now });
      expect(members(second.rotation)).to.deep.equal([TOKENS[1]]);
      expect(second.rotation.acquire()?.secret).to.equal(TOKENS[1]);
      // Limit-marked members fill what healthy ones leave, in config order.
      const third = await makeRotation(TOKENS, 3, store, { now: first.clock.now });
      expect(members(third.rotation)).to.deep.equal([TOKENS[0], TOKENS[1], TOKENS[3]]);
      const fourth = await makeRotation([TOKENS[0], TOKENS[2]], 1, store, { now: first.clock.now });
      expect(members(fourth.rotation)).to.deep.equal([TOKENS[0]]);
    });
  });
});
