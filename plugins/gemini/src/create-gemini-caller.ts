import { Readable } from 'node:stream';
import {
  callWithCredentials,
  readUpstreamBody,
  sendUpstreamRequest,
  type CredentialPool,
  type PlatformBaseOptions,
  type RequestContext,
  type UpstreamRequest,
  type UpstreamResponse,
} from '@gateway/core';
import { classifyGeminiFailure } from './classify-gemini-failure';
import { ADDED_DEFAULT_SAFETY, CIVIC_INTEGRITY, type SafetySettings } from './create-safety-settings';
import { judgeGeminiFailure } from './judge-gemini-failure';

/** Bound on an error body read to look for a refused safety category. */
const ERROR_BODY_LIMIT = 256 * 1024;

export interface GeminiCallerDeps {
  platform: string;
  pool: CredentialPool<string>;
  upstream: Pick<PlatformBaseOptions, 'baseUrl' | 'timeouts'>;
  safety: SafetySettings;
  /** Every configured key, masked out of upstream messages. */
  secrets: readonly string[];
  now?: () => number;
}

export interface GeminiCallOptions {
  /** Failure statuses answered as they came instead of thrown: a download's 416 carries its `content-range`. */
  passStatuses?: readonly number[];
}

export type GeminiCaller = (request: UpstreamRequest, ctx: RequestContext, options?: GeminiCallOptions) => Promise<UpstreamResponse>;

/**
 * `ctx.state` key: the id of the credential a call must use (a Veo operation or file belongs to the project of the
 * key that created it). Ignored when no configured key has that id any more.
 */
export const PINNED_CREDENTIAL = 'gemini.pinnedCredential';

/** `ctx.state` key set by callWithCredentials: the credential that made the last call. */
export const USED_CREDENTIAL = 'credential';

/**
 * The platform's upstream call: the next healthy API key as `x-goog-api-key` (round-robin), and on a failure that
 * is the key's fault (rate limit, invalid key) the key is marked in the store and the call retried on another, while
 * nothing has reached the client. A failure that is the request's fault is thrown, classified.
 */
export function createGeminiCaller(deps: GeminiCallerDeps): GeminiCaller {
  const now = deps.now ?? Date.now;
  const { pool } = deps;

  /** One call with one key; a 400 refusing the default's deprecated civic-integrity category is resent without it. */
  async function sendWithKey(request: UpstreamRequest, ctx: RequestContext, key: string): Promise<UpstreamResponse> {
    const headers = { 'x-goog-api-key': key };
    const response = await sendUpstreamRequest(request, ctx, deps.upstream, headers);
    if (response.status !== 400 || ctx.state.get(ADDED_DEFAULT_SAFETY) !== true) return response;
    const text = await readUpstreamBody(response, ERROR_BODY_LIMIT).catch(() => Buffer.alloc(0));
    const retry = text.includes(CIVIC_INTEGRITY) ? withoutCivicIntegrity(request) : undefined;
    if (!retry) return { ...response, body: Readable.from([text]) };
    deps.safety.dropCivic();
    ctx.log.warn('upstream refused the civic-integrity safety category; no longer sent', { platform: deps.platform });
    return sendUpstreamRequest(retry, ctx, deps.upstream, headers);
  }

  return async (request, ctx, options = {}) => {
    const pinned = ctx.state.get(PINNED_CREDENTIAL);
    const pin = typeof pinned === 'string' && pool.entries.some((entry) => entry.id === pinned) ? pinned : undefined;
    return callWithCredentials({
      pool,
      ctx,
      maxAttempts: pin ? 1 : Math.max(1, pool.entries.length),
      ...(pin ? { accept: (entry: { id: string }) => entry.id === pin } : {}),
      send: (entry) => sendWithKey(request, ctx, entry.secret),
      classify: (failure) => classifyGeminiFailure(failure, ctx.endpoint, deps.secrets),
      judge: (failure, error) => judgeGeminiFailure(failure, error, now()),
      noun: 'API key',
      now,
      ...(options.passStatuses ? { passStatuses: options.passStatuses } : {}),
    });
  };
}

/** The request with the civic-integrity entry taken out of its safety settings; undefined when it had none. */
function withoutCivicIntegrity(request: UpstreamRequest): UpstreamRequest | undefined {
  let json: Record<string, unknown>;
  try {
    const parsed: unknown = request.body ? JSON.parse(request.body.toString('utf8')) : request.json;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    json = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const settings = json.safetySettings;
  if (!Array.isArray(settings)) return undefined;
  const kept = settings.filter((setting: unknown) => !(typeof setting === 'object' && setting !== null && 'category' in setting && setting.category === CIVIC_INTEGRITY));
  if (kept.length === settings.length) return undefined;
  return { ...request, body: undefined, json: { ...json, safetySettings: kept } };
}
