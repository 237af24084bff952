import { Readable } from 'node:stream';
import {
  decodeOpenAiError,
  readUpstreamBody,
  type WireEvent,
  maskGivenSecrets,
  classifyUpstreamFailure,
  upstreamWordsOf,
  GatewayError,
  isGatewayError,
  toGatewayError,
  isEventStream,
  peekFirstSseEvent,
  readCooldownHint,
  readUpstreamFailure,
  SAME_CREDENTIAL_STATE,
  type CredentialEntry,
  type RequestContext,
  type UpstreamFailure,
  type UpstreamResponse,
} from '@gateway/core';
import { blankRequestEchoes } from './blank-request-echoes';
import { classifyTokenFailure, type TokenPatterns, type TokenVerdict } from './classify-token-failure';
import type { RotationSet, TokenChoice } from './create-rotation-set';
import type { PoolModel } from './parse-pool-model';

export interface PoolCallSettings {
  patterns: TokenPatterns;
  maxAttempts: number;
  /** Cooldown of a limit-marked token when the upstream gives no reset hint. */
  cooldownMs: number;
  /** Every configured token, masked out of upstream error texts. */
  secrets: readonly string[];
  now?: () => number;
}

export interface PoolCall {
  rotation: RotationSet;
  settings: PoolCallSettings;
  ctx: Pick<RequestContext, 'state' | 'signal'>;
  /** The client's model name and what it needs (premium tier), when the request names one. */
  model?: { name: string; premium?: PoolModel['premium'] };
  /** The bytes sent upstream: what an error echoes of them is not the upstream's own word (blankRequestEchoes). */
  requestBody?: Buffer;
  send(token: CredentialEntry<string>): Promise<UpstreamResponse>;
}

/** Shortest cooldown of a limit mark, so a `retry-after: 0` does not hand the same token straight back. */
const MIN_COOLDOWN_MS = 1000;
const REASON_MAX_CHARS = 500;

/**
 * Calls the upstream with the next token of the rotation set. An error whose text matches the anomaly or limit
 * patterns marks the token (spec 3) and the request is retried on another token, up to `maxAttempts` calls;
 * nothing has reached the client at that point, because only a 2xx answer is returned. Any other error is the
 * request's own and is thrown as the upstream said it (tokens masked).
 */
export async function callWithPoolTokens(call: PoolCall): Promise<UpstreamResponse> {
  const { rotation, settings } = call;
  const now = settings.now ?? Date.now;
  // A call made again without a field the upstream refused stays with the token it used.
  const choice: TokenChoice & { exclude: Set<string> } = { premium: call.model?.premium !== undefined, exclude: new Set(), prefer: call.ctx.state.get(SAME_CREDENTIAL_STATE) };
  let last: { error: GatewayError; verdict: TokenVerdict } | undefined;
  for (let attempt = 0; attempt < settings.maxAttempts; attempt += 1) {
    const token = rotation.acquire(choice);
    if (!token) break;
    rotation.pool.recordRequest(token.id);
    call.ctx.state.set('credential', token.id);
    let answer: Awaited<ReturnType<typeof judgeStreamStart>>;
    try {
      const sent = await call.send(token);
      answer = sent.status < 400 ? await judgeStreamStart(sent) : { failure: await readUpstreamFailure(sent) };
    } catch (error) {
      // A timeout or a broken connection says nothing of the token's account, but the admin view counts it as the
      // token's error (an operator looks there for failing tokens); the client leaving or a shutdown is no error.
      if (!call.ctx.signal.aborted && !(isGatewayError(error) && error.code === 'GW_SHUTTING_DOWN')) {
        await rotation.recordError(token.id, maskGivenSecrets(toGatewayError(error).message, settings.secrets).slice(0, REASON_MAX_CHARS));
      }
      throw error;
    }
    if ('response' in answer) return answer.response;

    const failure = maskFailure(answer.failure, settings.secrets);
    // The raw text is masked above; the secrets again for what only decoding shows (a token echoed as `acct\/…`).
    const error = classifyUpstreamFailure(failure, settings.secrets);
    const verdict = classifyTokenFailure({ status: failure.status, text: blankRequestEchoes(failure.text, call.requestBody, settings.patterns) }, settings.patterns);
    const reason = `HTTP ${failure.status}: ${error.message}`.slice(0, REASON_MAX_CHARS);
    if (verdict === undefined) {
      await rotation.recordError(token.id, reason);
      throw error;
    }
    if (verdict === 'anomaly') await rotation.markAbnormal(token.id, reason);
    else await rotation.markLimited(token.id, now() + Math.max(MIN_COOLDOWN_MS, readCooldownHint(failure.headers, now()) ?? settings.cooldownMs), reason, upstreamWordsOf(error));
    choice.exclude.add(token.id);
    last = { error, verdict };
  }
  throw noTokenError(call, choice, last, now());
}

/**
 * How long a stream's first event is waited for to judge it (an error in a 200): longer, the stream goes to the client
 * unjudged, so that a model thinking without streaming does not leave the client with no byte (see PeekOptions.waitMs).
 */
const FIRST_EVENT_WAIT_MS = 10_000;

/** Bound on a whole 2xx JSON answer read to look for an error envelope in it. */
const JSON_ANSWER_LIMIT = 64 * 1024 * 1024;

/**
 * A 2xx answer as it goes to the client, or, when it is an error in a 200 (some services answer 200 and then
 * `data: {"error":…}` for a token out of quota, or a 200 JSON body `{"error": …}`), that error as a failure: nothing
 * has reached the client yet, so the token can be judged and the request retried like any failed call
 * (DECISIONS §7). A stream's role-only opening chunk is passed over: the error may follow it.
 */
async function judgeStreamStart(response: UpstreamResponse): Promise<{ response: UpstreamResponse } | { failure: UpstreamFailure }> {
  const type = response.headers['content-type'];
  if (type !== undefined && !isEventStream(type) && /[/+]json\b/i.test(String(type))) return judgeJsonAnswer(response);
  if (!isEventStream(type) || type === undefined) return { response };
  const peeked = await peekFirstSseEvent(response, { skip: saysNothingYet, waitMs: FIRST_EVENT_WAIT_MS });
  const first = peeked.first;
  const json = parseJson(first?.data);
  if (first === undefined || (first.event !== 'error' && errorOf(json) === undefined)) return { response: peeked.response };
  peeked.response.body.destroy();
  return { failure: { status: inBandStatus(errorOf(json)), headers: response.headers, text: first.data, json } };
}

/** A whole JSON answer, read (it goes to the client whole anyway) to see whether it is an error envelope. */
async function judgeJsonAnswer(response: UpstreamResponse): Promise<{ response: UpstreamResponse } | { failure: UpstreamFailure }> {
  const bytes = await readUpstreamBody(response, JSON_ANSWER_LIMIT);
  const text = bytes.toString('utf8');
  const json = parseJson(text);
  const error = errorOf(json);
  if (error === undefined) return { response: { ...response, body: Readable.from([bytes]) } };
  return { failure: { status: inBandStatus(error), headers: response.headers, text, json } };
}

/** `{"error": {…}}` as OpenAI shapes it, or `{"error": "…"}` as some services do; undefined for anything else. */
function errorOf(json: unknown): unknown {
  const error = json !== null && typeof json === 'object' ? (json as { error?: unknown }).error : undefined;
  return (error !== null && typeof error === 'object') || (typeof error === 'string' && error !== '') ? error : undefined;
}

/**
 * The status an error given in a 200 stands for: an HTTP-like numeric code, else what its type and code mean
 * (`context_length_exceeded` a 400, `insufficient_quota` a 429), as for the same error from the openai platform;
 * else the upstream's failure (502).
 */
function inBandStatus(error: unknown): number {
  if (error === null || typeof error !== 'object') return 502;
  const { code } = error as { code?: unknown };
  if (typeof code === 'number' && code >= 400 && code <= 599) return code;
  return decodeOpenAiError(error as Record<string, unknown>).status;
}

/** A chat chunk that says nothing yet: a role, empty content, no call, finish or usage (Azure's empty opening chunk too). */
function saysNothingYet(event: WireEvent): boolean {
  const json = parseJson(event.data);
  if (json === null || typeof json !== 'object' || 'error' in json || Boolean((json as { usage?: unknown }).usage)) return false;
  const choices = (json as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) return false;
  return choices.every((choice: unknown) => {
    if (choice === null || typeof choice !== 'object') return false;
    const { delta, finish_reason: finish } = choice as { delta?: Record<string, unknown>; finish_reason?: unknown };
    if (finish) return false;
    return !delta || Object.entries(delta).every(([key, value]) => key === 'role' || value === '' || value === null || value === undefined);
  });
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The failure with every pool token masked out of it, before anything reads its text. */
function maskFailure(failure: UpstreamFailure, secrets: readonly string[]): UpstreamFailure {
  const text = maskGivenSecrets(failure.text, secrets);
  return text === failure.text ? failure : { ...failure, text, json: parseJson(text) };
}

/** Why no token could serve: attempts used up, every candidate limited (429), none premium (403), none healthy (503). */
function noTokenError(call: PoolCall, choice: TokenChoice, last: { error: GatewayError; verdict: TokenVerdict } | undefined, nowMs: number): GatewayError {
  const { rotation } = call;
  const platform = rotation.pool.platform;
  const premium = choice.premium ? 'premium ' : '';
  if (last && rotation.hasUsable({ premium: choice.premium })) {
    const tried = call.settings.maxAttempts;
    const message = `gave up after ${tried} attempt${tried === 1 ? '' : 's'} on pool "${platform}" (each token tried was limited or abnormal); last upstream error: ${last.error.message}`;
    return last.verdict === 'limit'
      ? new GatewayError('GW_RATE_LIMITED', message, { retryAfterMs: MIN_COOLDOWN_MS, cause: last.error, ...upstreamWordsOf(last.error) })
      : new GatewayError('GW_NO_CREDENTIAL', message, { cause: last.error });
  }
  const nextAt = rotation.nextAvailableAt({ premium: choice.premium });
  if (nextAt !== undefined) {
    const retryAfterMs = Math.max(0, nextAt - nowMs);
    // The upstream's own type and code (`insufficient_quota`) stay: this request's, else the mark's of the token waited for.
    const waitedFor = rotation.pool.entries.map((entry) => rotation.pool.status(entry.id)).find((status) => status?.cooldownUntil === nextAt);
    const words = last?.verdict === 'limit' ? upstreamWordsOf(last.error) : { upstreamType: waitedFor?.upstreamType, upstreamCode: waitedFor?.upstreamCode };
    return new GatewayError(
      'GW_RATE_LIMITED',
      `every ${premium}token in the rotation set of pool "${platform}" is rate-limited; retry in ${Math.ceil(retryAfterMs / 1000)}s`,
      { retryAfterMs, cause: last?.error, ...words },
    );
  }
  if (call.model?.premium) return new GatewayError('GW_FORBIDDEN', premiumReason(call.model.name, call.model.premium, rotation), { cause: last?.error });
  const abnormal = rotation.pool.entries.filter((entry) => rotation.pool.state(entry.id) === 'abnormal').length;
  const total = rotation.pool.entries.length;
  const detail = total === 0 ? 'no token is configured' : `${abnormal} of ${total} token${total === 1 ? ' is' : 's are'} abnormal`;
  return new GatewayError('GW_NO_CREDENTIAL', `no healthy token is left in pool "${platform}" (${detail})`, { cause: last?.error, final: true });
}

function premiumReason(model: string, why: NonNullable<PoolModel['premium']>, rotation: RotationSet): string {
  const needs = `model "${model}" needs a premium token (${why === 'max-suffix' ? 'a -max model' : 'listed in premiumModels'})`;
  const premium = rotation.pool.entries.filter((entry) => entry.tier === 'premium');
  if (premium.length === 0) return `${needs}, and pool "${rotation.pool.platform}" has none`;
  const abnormal = premium.filter((entry) => rotation.pool.state(entry.id) === 'abnormal').length;
  const outside = premium.filter((entry) => rotation.pool.state(entry.id) !== 'abnormal' && !rotation.isMember(entry.id)).length;
  const parts = [abnormal > 0 ? `${abnormal} abnormal` : '', outside > 0 ? `${outside} outside the rotation set` : ''].filter(Boolean);
  const detail = parts.length > 0 ? ` (${parts.join(', ')})` : '';
  return `${needs}, and none of the pool's ${premium.length} premium token${premium.length === 1 ? ' is' : 's is'} usable${detail}`;
}
