import { ConfigError } from '../config/load-config';
import { maskCredential } from '../errors/mask-secret';
import type { Logger } from '../logging';
import type { Store } from '../store/store';
import { credentialId } from './credential-id';
import type { AdminView, CredentialEntry, CredentialState, CredentialStatus, CredentialView } from './credential-types';

const CREDENTIAL_STATES: ReadonlySet<string> = new Set<CredentialState>(['healthy', 'cooling_down', 'limit_marked', 'abnormal', 'invalid']);

export interface CredentialPoolOptions<Secret> {
  platform: string;
  store: Store;
  log: Logger;
  credentials: Array<{ kind: string; secret: Secret; tier?: string; key: string }>;
  /** Clock, replaceable in tests. */
  now?: () => number;
}

const COUNTER_FLUSH_MS = 5_000;
/**
 * Longest cooldown taken from an upstream's hint (31 days: a monthly quota's reset still fits). An absurd
 * `retry-after` (10^13 s) would otherwise be a date past what Date can hold: every log line and admin view of that
 * credential would throw, and the mark, once stored, would keep doing so after a restart.
 */
const MAX_COOLDOWN_MS = 31 * 24 * 3600 * 1000;

/**
 * The credentials of one platform with their health, shared by every plugin that rotates keys. Picks the next
 * usable credential round-robin; marks (cooldown, invalid, …) are written to the store before the call that made
 * them resolves, so a restart keeps them; one the store refuses holds in memory and is written with the counters,
 * which are flushed in the background and at close.
 */
export function createCredentialPool<Secret = string>(options: CredentialPoolOptions<Secret>) {
  const now = options.now ?? Date.now;
  const namespace = `credentials:${options.platform}`;
  const entries: Array<CredentialEntry<Secret>> = options.credentials.map((c) => ({
    id: credentialId(c.key),
    kind: c.kind,
    secret: c.secret,
    masked: maskCredential(c.key),
    tier: c.tier,
  }));
  // One credential listed twice would be two rows of one status, and get twice its share of the calls.
  const firstIndex = new Map<string, number>();
  entries.forEach((entry, index) => {
    const earlier = firstIndex.get(entry.id);
    if (earlier !== undefined) throw new ConfigError(`platforms.${options.platform}.credentials[${index}]: the same credential as credentials[${earlier}]`);
    firstIndex.set(entry.id, index);
  });
  const status = new Map<string, CredentialStatus>(entries.map((e) => [e.id, { state: 'healthy', requests: 0, errors: 0 }]));
  /** Where each lane's round-robin goes on (see acquire): one lane's picks do not move another's turn. */
  const cursors = new Map<string, number>();
  let dirty = new Set<string>();
  let flushTimer: NodeJS.Timeout | undefined;
  /** After close, nothing is written in the background any more: the store is about to close. */
  let closed = false;

  /** A cooldown that has ended turns back into health without anyone having to write it. */
  function effectiveState(s: CredentialStatus): CredentialState {
    if ((s.state === 'cooling_down' || s.state === 'limit_marked') && (s.cooldownUntil ?? 0) <= now()) return 'healthy';
    return s.state;
  }

  /** At most MAX_COOLDOWN_MS from now; a value that is not a number counts as that far. */
  function boundedCooldown(untilMs: number): number {
    const latest = now() + MAX_COOLDOWN_MS;
    return Number.isFinite(untilMs) ? Math.min(untilMs, latest) : latest;
  }

  function persist(id: string): Promise<void> {
    return options.store.set(namespace, id, status.get(id));
  }

  /**
   * A mark written now; if the store cannot take it (a full disk, an I/O error), the mark still
   * holds in memory and the write is tried again with the counters, rather than failing the request that made it.
   */
  async function persistMark(id: string): Promise<void> {
    try {
      await persist(id);
    } catch (error) {
      options.log.error('credential state not saved; retrying in the background', { credential: pool.masked(id), error: String((error as Error).message ?? error) });
      scheduleFlush(id);
    }
  }

  function scheduleFlush(id: string): void {
    dirty.add(id);
    if (flushTimer || closed) return;
    flushTimer = setTimeout(() => void pool.flush().catch(() => undefined), COUNTER_FLUSH_MS);
    flushTimer.unref();
  }

  /** Whether `s` is already set aside until after `untilMs`, or for good: a later answer must not shorten that. */
  function outlasts(s: CredentialStatus, untilMs: number): boolean {
    const state = effectiveState(s);
    if (state === 'invalid' || state === 'abnormal') return true;
    return (state === 'cooling_down' || state === 'limit_marked') && (s.cooldownUntil ?? 0) >= untilMs;
  }

  const pool = {
    platform: options.platform,
    entries: entries as ReadonlyArray<CredentialEntry<Secret>>,

    /**
     * Restores marks and counters of credentials still configured; forgets those removed from the config. A row that
     * cannot be read (see readStoredStatus) is skipped with a warning: that credential starts healthy, and its row is
     * rewritten with the next counter flush.
     */
    async load(): Promise<void> {
      const unreadable: string[] = [];
      const stored = await options.store.list<unknown>(namespace, { onUnreadable: (key) => unreadable.push(key) });
      for (const { key, value } of stored) {
        if (!status.has(key)) {
          await options.store.delete(namespace, key);
          // A credential left out of the config (a secret's environment variable unset for one start included) is
          // forgotten: configured again, it starts healthy. Its mark is said, so an operator can tell why it came back.
          const mark = readStoredStatus(value);
          if (mark && mark.state !== 'healthy') options.log.warn('credential no longer configured: its mark is dropped', { entry: `${namespace}/${key}`, state: mark.state, reason: mark.reason });
          continue;
        }
        const read = readStoredStatus(value);
        if (!read) {
          unreadable.push(key);
          continue;
        }
        // Marks stored before cooldowns were bounded come back bounded.
        status.set(key, { ...read, cooldownUntil: read.cooldownUntil === undefined ? undefined : boundedCooldown(read.cooldownUntil) });
      }
      for (const key of unreadable) {
        if (!status.has(key)) {
          await options.store.delete(namespace, key);
          continue;
        }
        options.log.warn('stored credential state unreadable; the credential starts healthy', { credential: pool.masked(key), entry: `${namespace}/${key}` });
        scheduleFlush(key);
      }
    },

    state(id: string): CredentialState {
      const s = status.get(id);
      return s ? effectiveState(s) : 'invalid';
    },

    status(id: string): CredentialStatus | undefined {
      return status.get(id);
    },

    /**
     * The next usable credential after the last one handed out, skipping `exclude` (already tried for this
     * request) and those `accept` refuses (e.g. a tier filter). Undefined when none is usable. Requests that pick
     * from different subsets (premium-only against any) take separate `lane`s: with one shared turn, every premium
     * pick would move the others' turn back past a token, which then never served. `prefer`: the credential this
     * request used before (its `credential` state), taken again while it is usable, without moving the turn.
     */
    acquire(choice: { exclude?: ReadonlySet<string>; accept?: (entry: CredentialEntry<Secret>) => boolean; lane?: string; prefer?: unknown } = {}): CredentialEntry<Secret> | undefined {
      const usable = (entry: CredentialEntry<Secret>): boolean =>
        !choice.exclude?.has(entry.id) && (!choice.accept || choice.accept(entry)) && effectiveState(status.get(entry.id)!) === 'healthy';
      // A call the request makes again (without a field the upstream refused) goes with the credential it used, while
      // that one can serve: it is no other credential's turn, and the refusal said nothing of this one.
      if (choice.prefer !== undefined) {
        const preferred = entries.find((entry) => entry.id === choice.prefer);
        if (preferred && usable(preferred)) return preferred;
      }
      const lane = choice.lane ?? '';
      const cursor = cursors.get(lane) ?? 0;
      for (let step = 0; step < entries.length; step += 1) {
        const entry = entries[(cursor + step) % entries.length];
        if (!usable(entry)) continue;
        cursors.set(lane, (cursor + step + 1) % entries.length);
        return entry;
      }
      return undefined;
    },

    /** Epoch ms when the first cooling credential (among those `accept` takes) becomes usable again. */
    nextAvailableAt(accept?: (entry: CredentialEntry<Secret>) => boolean): number | undefined {
      let soonest: number | undefined;
      for (const entry of entries) {
        if (accept && !accept(entry)) continue;
        const s = status.get(entry.id)!;
        if ((s.state === 'cooling_down' || s.state === 'limit_marked') && s.cooldownUntil !== undefined) {
          soonest = soonest === undefined ? s.cooldownUntil : Math.min(soonest, s.cooldownUntil);
        }
      }
      return soonest;
    },

    recordRequest(id: string): void {
      const s = status.get(id);
      if (!s) return;
      s.requests += 1;
      scheduleFlush(id);
    },

    /**
     * Puts a credential aside until `untilMs` (rate limit). Written before it resolves (see persistMark). A credential already
     * aside for longer (another request's answer: a quota's hour against a rate limit's second), or taken out of
     * service, stays so. One that outlasts a quota mark keeps the `limit_marked` state.
     */
    async markCooldown(
      id: string,
      untilMs: number,
      reason: string,
      state: 'cooling_down' | 'limit_marked' = 'cooling_down',
      said: Pick<CredentialStatus, 'upstreamType' | 'upstreamCode'> = {},
    ): Promise<void> {
      untilMs = boundedCooldown(untilMs);
      const current = status.get(id);
      if (current && outlasts(current, untilMs)) return;
      // A rate limit outlasting a quota mark extends it; the credential is still out of quota until then.
      if (current && effectiveState(current) === 'limit_marked') state = 'limit_marked';
      await pool.mark(id, { state, cooldownUntil: untilMs, reason, upstreamType: said.upstreamType, upstreamCode: said.upstreamCode });
      options.log.warn('credential cooling down', { credential: pool.masked(id), until: new Date(untilMs).toISOString(), reason });
    },

    /** Takes a credential out of service until an operator resets it. Written before it resolves (see persistMark). */
    async markInvalid(id: string, reason: string, state: 'invalid' | 'abnormal' = 'invalid'): Promise<void> {
      await pool.mark(id, { state, cooldownUntil: undefined, reason, upstreamType: undefined, upstreamCode: undefined });
      options.log.warn('credential disabled', { credential: pool.masked(id), state, reason });
    },

    async mark(id: string, change: Partial<CredentialStatus>): Promise<void> {
      const s = status.get(id);
      if (!s) return;
      const isError = change.state !== undefined && change.state !== 'healthy';
      Object.assign(s, change);
      if (isError) {
        s.errors += 1;
        s.lastError = change.reason ?? s.lastError;
      }
      await persistMark(id);
    },

    /** Back to healthy (admin reset). */
    async reset(id: string): Promise<boolean> {
      const s = status.get(id);
      if (!s) return false;
      Object.assign(s, { state: 'healthy', cooldownUntil: undefined, reason: undefined, upstreamType: undefined, upstreamCode: undefined });
      await persistMark(id);
      return true;
    },

    masked(id: string): string {
      return entries.find((e) => e.id === id)?.masked ?? id;
    },

    view(extra?: (entry: CredentialEntry<Secret>) => Partial<CredentialView>): AdminView {
      return {
        platform: options.platform,
        credentials: entries.map((entry) => {
          const s = status.get(entry.id)!;
          const state = effectiveState(s);
          return {
            id: entry.id,
            kind: entry.kind,
            masked: entry.masked,
            ...(entry.tier ? { tier: entry.tier } : {}),
            state,
            ...(state !== 'healthy' && s.cooldownUntil ? { cooldownUntil: new Date(s.cooldownUntil).toISOString() } : {}),
            requests: s.requests,
            errors: s.errors,
            ...(s.lastError ? { lastError: s.lastError } : {}),
            ...extra?.(entry),
          };
        }),
      };
    },

    /**
     * Writes pending counters and marks the store could not take before; called by a timer. What still cannot be
     * written stays pending (tried again by the timer) and the first failure is thrown.
     */
    async flush(): Promise<void> {
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = undefined;
      const ids = dirty;
      dirty = new Set();
      let failure: unknown;
      for (const id of ids) {
        try {
          await persist(id);
        } catch (error) {
          failure ??= error;
          scheduleFlush(id);
        }
      }
      if (failure !== undefined) {
        options.log.error(closed ? 'credential states not saved at shutdown' : 'credential states not saved; retrying', { platform: options.platform, error: String((failure as Error).message ?? failure) });
        throw failure;
      }
    },

    /** At shutdown: a last flush, after which nothing is tried again in the background. */
    async close(): Promise<void> {
      closed = true;
      await pool.flush();
    },
  };
  return pool;
}

/**
 * A stored status as far as it can be trusted. This code wrote it, but a damaged file or a hand edit must cost one
 * credential its history, not the start-up: no known state means unreadable (undefined); a field of the wrong type is
 * left out (a counter starts at 0).
 */
function readStoredStatus(value: unknown): CredentialStatus | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { state, cooldownUntil, reason, upstreamType, upstreamCode, lastError, requests, errors, extra } = value as Record<string, unknown>;
  if (typeof state !== 'string' || !CREDENTIAL_STATES.has(state)) return undefined;
  return {
    state: state as CredentialState,
    ...(isNonNegative(cooldownUntil) ? { cooldownUntil } : {}),
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(typeof upstreamType === 'string' ? { upstreamType } : {}),
    ...(typeof upstreamCode === 'string' ? { upstreamCode } : {}),
    ...(typeof lastError === 'string' ? { lastError } : {}),
    requests: isNonNegative(requests) ? requests : 0,
    errors: isNonNegative(errors) ? errors : 0,
    ...(typeof extra === 'object' && extra !== null && !Array.isArray(extra) ? { extra: extra as Record<string, unknown> } : {}),
  };
}

function isNonNegative(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

export type CredentialPool<Secret = string> = ReturnType<typeof createCredentialPool<Secret>>;
