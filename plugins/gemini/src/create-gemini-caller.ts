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
import type { SafetySettings } from './create-safety-settings';
import { judgeGeminiFailure } from './judge-gemini-failure';
import { createRefusalRepairs } from './refusal-repairs';

/** Bound on an error body read to look for a refused field the gateway added. */
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

  const repairs = createRefusalRepairs({ platform: deps.platform, safety: deps.safety });

  /**
   * One call with one key. A 400 refusing something the gateway added itself (the default's civic-integrity
   * category, a translated penalty) is resent without it, once per such thing, and later calls go without it.
   */
  async function sendWithKey(request: UpstreamRequest, ctx: RequestContext, key: string): Promise<UpstreamResponse> {
    const headers = { 'x-goog-api-key': key };
    let pending = repairs.filter((repair) => repair.added(ctx));
    let sent = request;
    for (const repair of pending.filter((candidate) => candidate.refusedBefore(ctx))) {
      sent = repair.without(sent) ?? sent;
      pending = pending.filter((candidate) => candidate !== repair);
    }
    for (;;) {
      const response = await sendUpstreamRequest(sent, ctx, deps.upstream, headers);
      if (response.status !== 400 || pending.length === 0) return response;
      const text = await readUpstreamBody(response, ERROR_BODY_LIMIT).catch(() => Buffer.alloc(0));
      const body = text.toString('utf8');
      const repair = pending.find((candidate) => candidate.refused(body));
      const retry = repair?.without(sent);
      if (!repair || !retry) return { ...response, body: Readable.from([text]) };
      repair.onRefused(ctx);
      pending = pending.filter((candidate) => candidate !== repair);
      sent = retry;
    }
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
