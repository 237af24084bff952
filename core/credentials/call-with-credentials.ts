import { GatewayError } from '../errors/gateway-error';
import type { RequestContext, UpstreamFailure, UpstreamResponse } from '../hooks/plugin-api';
import { readUpstreamFailure } from '../upstream/read-upstream-failure';
import type { CredentialPool } from './create-credential-pool';
import type { CredentialEntry, CredentialStatus } from './credential-types';

/** What to do with the credential after a failed answer. */
export type FailureVerdict =
  /** Rate-limited or overloaded: set it aside until `untilMs`, try another. */
  | { action: 'cooldown'; untilMs: number; state?: 'cooling_down' | 'limit_marked' }
  /** Broken (bad key, banned account): take it out of service, try another. */
  | { action: 'disable'; state?: 'invalid' | 'abnormal' }
  /**
   * Refused for a reason another credential may not share (a model this key's workspace may not use): try another,
   * mark nothing. Marking would let one request for such a model take every credential out of service.
   */
  | { action: 'next' }
  /** Try the same credential once more (e.g. after refreshing its token). */
  | { action: 'retry-same' }
  /** The request itself is at fault: answer the client with this error. */
  | { action: 'fail' };

export interface CredentialCall<Secret> {
  pool: CredentialPool<Secret>;
  ctx: RequestContext;
  /** Upper bound on upstream calls for this request. */
  maxAttempts: number;
  /** Which credentials may serve this request (e.g. premium tier only). */
  accept?: (entry: CredentialEntry<Secret>) => boolean;
  send(entry: CredentialEntry<Secret>): Promise<UpstreamResponse>;
  /** Turns the failed answer into the error the client would see. */
  classify(failure: UpstreamFailure): GatewayError;
  /** Decides the credential's fate from the failure and its classified error. */
  judge(failure: UpstreamFailure, error: GatewayError, entry: CredentialEntry<Secret>): FailureVerdict | Promise<FailureVerdict>;
  /** Names what the pool holds in the error when none can serve ("credential" unless told, e.g. "API key"). */
  noun?: string;
  /** Clock for `retry-after`; the pool's own, so both agree in tests. */
  now?: () => number;
  /** Failure statuses answered as they came, not judged: a download's 416 carries the `content-range` a client needs. */
  passStatuses?: readonly number[];
}

/**
 * A request's state key (RequestContext.state) naming the credential its next upstream call should go with, while that
 * one is usable: set by core around a call made again without a field the upstream refused (the refusal said nothing
 * of the credential, and it is no other one's turn). Any other call goes round-robin, several of one request included.
 */
export const SAME_CREDENTIAL_STATE = 'sameCredential';

/**
 * Calls the upstream with the next usable credential; on a failure that is the credential's fault, marks it and
 * retries on another, while nothing has reached the client yet. Resolves with the first answer below 400 (or of
 * one of `passStatuses`).
 */
export async function callWithCredentials<Secret>(call: CredentialCall<Secret>): Promise<UpstreamResponse> {
  const { pool, ctx } = call;
  const tried = new Set<string>();
  let lastError: GatewayError | undefined;
  let retriedSame = false;
  let entry: CredentialEntry<Secret> | undefined;
  for (let attempt = 0; attempt < call.maxAttempts; attempt += 1) {
    if (!entry) entry = pool.acquire({ exclude: tried, accept: call.accept, prefer: attempt === 0 ? ctx.state.get(SAME_CREDENTIAL_STATE) : undefined });
    if (!entry) break;
    pool.recordRequest(entry.id);
    ctx.state.set('credential', entry.id);
    const response = await call.send(entry);
    if (response.status < 400 || call.passStatuses?.includes(response.status)) return response;

    const failure = await readUpstreamFailure(response);
    const error = call.classify(failure);
    lastError = error;
    const verdict = await call.judge(failure, error, entry);
    if (verdict.action === 'fail') throw error;
    if (verdict.action === 'retry-same' && !retriedSame) {
      retriedSame = true;
      continue;
    }
    await markByVerdict(pool, entry.id, verdict, error);
    tried.add(entry.id);
    entry = undefined;
    retriedSame = false;
  }
  throw noCredentialError(call, lastError);
}

/**
 * Marks the credential as the verdict on its failure says: set aside (cooldown, keeping the upstream's type and code)
 * or out of service (disable, and a `retry-same` that was already retried); `next` and `fail` mark nothing. Whether
 * it was marked.
 */
export async function markByVerdict<Secret>(pool: CredentialPool<Secret>, id: string, verdict: FailureVerdict, error: GatewayError): Promise<boolean> {
  const reason = error.message;
  if (verdict.action === 'cooldown') await pool.markCooldown(id, verdict.untilMs, reason, verdict.state, upstreamWordsOf(error));
  else if (verdict.action === 'disable' || verdict.action === 'retry-same') await pool.markInvalid(id, reason, verdict.action === 'disable' ? verdict.state : 'invalid');
  else return false;
  return true;
}

/** A 429's own type and code (`insufficient_quota`), which a later "every credential is limited" answer repeats. */
export function upstreamWordsOf(error: GatewayError): Pick<CredentialStatus, 'upstreamType' | 'upstreamCode'> {
  // 402: an account out of credit says so there (`insufficient_quota`), which a client reads as the 429's own.
  return error.status === 429 || error.status === 402 ? { upstreamType: error.upstreamType, upstreamCode: error.upstreamCode } : {};
}

/**
 * Every credential is cooling down (429 with the soonest retry time) or out of service (503). The last upstream
 * answer, if any, is quoted, so the client still learns what the platform said (401 invalid key, 429 …); a last
 * answer that was the upstream's own fault (5xx, 529 overloaded) is the error itself.
 */
export function noCredentialError<Secret>(
  call: Pick<CredentialCall<Secret>, 'pool' | 'accept' | 'noun' | 'now'>,
  lastError?: GatewayError,
): GatewayError {
  // Asked without acquire(), which would move the round-robin turn past a credential.
  const { pool, accept } = call;
  const usableExists = pool.entries.some((entry) => (!accept || accept(entry)) && pool.state(entry.id) === 'healthy');
  if (usableExists && lastError) return lastError;
  // This request's own last call failed on the upstream's side (overloaded, a 5xx, an OAuth token endpoint down): the
  // client is told that, not that it is rate-limited; a request made while the credentials wait is told the wait.
  if (lastError && lastError.status >= 500) return lastError;
  const noun = call.noun ?? 'credential';
  const nextAt = call.pool.nextAvailableAt(call.accept);
  // This request's own last answer, else what the credential it waits for was marked with (a request made after the
  // marks, or after a restart, makes no call of its own).
  const stored = storedMark(call, nextAt);
  const said = lastError?.message ?? stored?.reason?.replace(/^HTTP \d{3}: /, '');
  const upstream = said ? ` (upstream: ${said})` : '';
  if (nextAt !== undefined) {
    // The upstream's own 429 type and code stay (`insufficient_quota`: clients tell a used-up quota from a rate limit by it).
    const words = lastError ? upstreamWordsOf(lastError) : stored ?? {};
    return new GatewayError('GW_RATE_LIMITED', `every ${noun} of platform "${call.pool.platform}" is rate-limited; retry later${upstream}`, {
      retryAfterMs: Math.max(0, nextAt - (call.now ?? Date.now)()),
      cause: lastError,
      upstreamType: words.upstreamType,
      upstreamCode: words.upstreamCode,
    });
  }
  return new GatewayError('GW_NO_CREDENTIAL', `no healthy ${noun} is left on platform "${call.pool.platform}"${upstream}`, { cause: lastError, final: true });
}

/** The mark (masked reason, upstream type and code) of the credential usable soonest, else of the first out of service. */
function storedMark<Secret>(call: Pick<CredentialCall<Secret>, 'pool' | 'accept'>, nextAt: number | undefined): CredentialStatus | undefined {
  const pool = call.pool;
  const candidates = pool.entries.filter((entry) => !call.accept || call.accept(entry)).map((entry) => pool.status(entry.id));
  return nextAt === undefined ? candidates.find((s) => s?.reason) : candidates.find((s) => s?.cooldownUntil === nextAt && s.reason);
}
