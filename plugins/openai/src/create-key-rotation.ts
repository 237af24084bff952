import {
  callWithCredentials,
  classifyUpstreamFailure,
  noCredentialError,
  type CredentialPool,
  type RequestContext,
  type UpstreamFailure,
  type UpstreamResponse,
} from '@gateway/core';
import { judgeOpenAiFailure } from './judge-openai-failure';

/** A configured API key and its stable, non-secret id (`credentialId`), which is what the store may keep. */
export interface ApiKey {
  id: string;
  secret: string;
}

export interface KeyCallOptions {
  /** A failure another key may not share (a stored response of another project): try the next key, mark nothing. */
  isOtherKeysBusiness?: (failure: UpstreamFailure) => boolean;
}

export interface KeyRotation {
  /** The next healthy key of the rotation; none healthy is GW_RATE_LIMITED (with the soonest retry) or GW_NO_CREDENTIAL. */
  next(): ApiKey;
  /**
   * Calls with the next healthy key. A failure that is the key's fault (rate limit, quota, invalid key) marks it in
   * the store and the call goes to another key, while nothing has reached the client; any other failure is thrown,
   * classified (keys masked).
   */
  call(ctx: RequestContext, send: (key: ApiKey) => Promise<UpstreamResponse>, options?: KeyCallOptions): Promise<UpstreamResponse>;
  /** The configured key with that credential id; undefined when none has it (any more). */
  byId(id: string): ApiKey | undefined;
  /** Every configured key, in config order. */
  readonly all: readonly ApiKey[];
}

/** Round-robin over the healthy API keys of `pool`, so call frequency spreads evenly and a failing key rests. */
export function createKeyRotation(pool: CredentialPool<string>, secrets: readonly string[], now: () => number = Date.now): KeyRotation {
  const all: readonly ApiKey[] = pool.entries.map((entry) => ({ id: entry.id, secret: entry.secret }));
  const noun = 'API key';
  return {
    next() {
      const entry = pool.acquire();
      if (!entry) throw noCredentialError({ pool, noun, now });
      pool.recordRequest(entry.id);
      return { id: entry.id, secret: entry.secret };
    },
    call(ctx, send, options = {}) {
      return callWithCredentials({
        pool,
        ctx,
        maxAttempts: Math.max(1, all.length),
        send: (entry) => send({ id: entry.id, secret: entry.secret }),
        classify: (failure) => classifyUpstreamFailure(failure, secrets),
        judge: (failure, error) => (options.isOtherKeysBusiness?.(failure) ? { action: 'next' } : judgeOpenAiFailure(failure, error, now())),
        noun,
        now,
      });
    },
    byId: (id) => all.find((key) => key.id === id),
    all,
  };
}
