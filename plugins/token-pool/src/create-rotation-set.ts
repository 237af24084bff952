import { maskCredential, type AdminView, type CredentialEntry, type CredentialPool, type CredentialStatus, type Logger } from '@gateway/core';

export interface RotationSetOptions {
  pool: CredentialPool<string>;
  /** How many tokens rotate at a time. */
  size: number;
  log: Logger;
}

/** Which tokens a request may use: `premium` limits it to premium-tier tokens. */
export interface TokenChoice {
  premium?: boolean;
  /** Tokens already tried for this request. */
  exclude?: ReadonlySet<string>;
  /** The token this request used before, taken again while usable (see the credential pool's `acquire`). */
  prefer?: unknown;
}

/**
 * The rotation set of a token pool (spec 3 and 8), built on the core credential pool: only `size` tokens serve
 * at a time, round-robin. A limit-marked token stays in the set and is skipped until its cooldown ends; an
 * abnormal one leaves it and the next healthy token outside the set (in config order) joins. Membership is kept
 * in the pool's persisted `extra`, so it survives a restart with the marks.
 *
 * Every change to marks and membership happens synchronously before the first `await`, so a concurrent request
 * never receives a token another request has just marked, and the set never holds more than `size` tokens.
 */
export function createRotationSet({ pool, size, log }: RotationSetOptions) {
  const entries = pool.entries;

  function masked(id: string): string {
    const entry = entries.find((candidate) => candidate.id === id);
    return entry ? maskCredential(entry.secret) : id;
  }

  function isMember(id: string): boolean {
    return pool.status(id)?.extra?.inRotation === true;
  }

  function setMembership(id: string, inRotation: boolean): Promise<void> {
    return pool.mark(id, { extra: { ...pool.status(id)?.extra, inRotation } });
  }

  function accepts(entry: CredentialEntry<string>, choice: TokenChoice): boolean {
    return isMember(entry.id) && (!choice.premium || entry.tier === 'premium');
  }

  /** Counts an upstream error that says nothing about the token (a bad request, an upstream fault). */
  async function recordError(id: string, reason: string): Promise<void> {
    const status = pool.status(id);
    if (status) await pool.mark(id, { errors: status.errors + 1, lastError: reason });
  }

  /**
   * Tops the set up to `size` with healthy tokens from outside it, in config order; when none is left, with
   * limit-marked ones (they serve again when their cooldown ends). Nothing else brings an outsider in once its
   * cooldown is over: a set shrunk at a restart while a member was limit-marked, and then emptied by anomalies, would
   * answer 503 for good beside a token that is healthy again.
   */
  function refill(): Array<Promise<void>> {
    const writes: Array<Promise<void>> = [];
    let members = entries.filter((entry) => isMember(entry.id)).length;
    for (const wanted of ['healthy', 'limit_marked'] as const) {
      for (const entry of entries) {
        if (members >= size) return writes;
        if (isMember(entry.id) || pool.state(entry.id) !== wanted) continue;
        writes.push(setMembership(entry.id, true));
        members += 1;
        log.info('token joined the rotation set', { credential: maskCredential(entry.secret), state: wanted });
      }
    }
    return writes;
  }

  return {
    pool,

    /**
     * After `pool.load()`: drops from the set tokens that are abnormal, and those beyond `size` (the config shrank it):
     * healthy members stay first, in config order, then limit-marked ones, so a smaller set does not keep a token out
     * for an hour while a healthy one waits outside. Then fills it up from the rest. Tokens removed from the config are
     * already gone; marks of the others stay.
     */
    async reconcile(): Promise<void> {
      const writes: Array<Promise<void>> = [];
      const serving: Array<CredentialEntry<string>> = [];
      for (const entry of entries) {
        if (!isMember(entry.id)) continue;
        const state = pool.state(entry.id);
        if (state === 'abnormal' || state === 'invalid') writes.push(setMembership(entry.id, false));
        else serving.push(entry);
      }
      const healthyFirst = [...serving.filter((entry) => pool.state(entry.id) === 'healthy'), ...serving.filter((entry) => pool.state(entry.id) !== 'healthy')];
      for (const entry of healthyFirst.slice(size)) writes.push(setMembership(entry.id, false));
      writes.push(...refill());
      await Promise.all(writes);
    },

    isMember,

    /** The next usable token of the set after the last one handed out, or undefined. */
    acquire(choice: TokenChoice = {}): CredentialEntry<string> | undefined {
      return pool.acquire({ exclude: choice.exclude, accept: (entry) => accepts(entry, choice), lane: choice.premium ? 'premium' : 'any', prefer: choice.prefer });
    },

    /** Whether some token of the set could serve `choice` now; unlike `acquire`, moves no cursor. */
    hasUsable(choice: TokenChoice = {}): boolean {
      return entries.some((entry) => accepts(entry, choice) && !choice.exclude?.has(entry.id) && pool.state(entry.id) === 'healthy');
    },

    /** Epoch ms when the first limit-marked member (that `choice` accepts) can serve again. */
    nextAvailableAt(choice: TokenChoice = {}): number | undefined {
      return pool.nextAvailableAt((entry) => accepts(entry, choice) && pool.state(entry.id) === 'limit_marked');
    },

    /**
     * Spec 3, row 1: flagged as having reached its limit; stays in the set, skipped until `untilMs`. `said`: the
     * upstream's own type and code, repeated when every token is limited.
     */
    async markLimited(id: string, untilMs: number, reason: string, said?: Pick<CredentialStatus, 'upstreamType' | 'upstreamCode'>): Promise<void> {
      // A concurrent request may have found the account abnormal meanwhile: that mark is the stronger one and stays.
      if (pool.state(id) === 'abnormal') await recordError(id, reason);
      else await pool.markCooldown(id, untilMs, reason, 'limit_marked', said);
    },

    /** Spec 3, row 2: flagged as abnormal; leaves the set and the next healthy token joins. */
    async markAbnormal(id: string, reason: string): Promise<void> {
      const wasMember = isMember(id);
      const writes = [pool.mark(id, { state: 'abnormal', cooldownUntil: undefined, reason, extra: { ...pool.status(id)?.extra, inRotation: false } })];
      if (wasMember) writes.push(...refill());
      log.warn('token marked abnormal', { credential: masked(id), reason });
      await Promise.all(writes);
    },

    recordError,

    /** Admin reset: back to healthy; it rejoins the set if the set has room. False for an unknown id. */
    async reset(id: string): Promise<boolean> {
      if (!(await pool.reset(id))) return false;
      await Promise.all(refill());
      log.info('token reset by an admin', { credential: masked(id), inRotation: isMember(id) });
      return true;
    },

    view(): AdminView {
      return pool.view((entry) => ({ masked: maskCredential(entry.secret), inRotation: isMember(entry.id) }));
    },
  };
}

export type RotationSet = ReturnType<typeof createRotationSet>;
