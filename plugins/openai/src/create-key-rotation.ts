import { Readable } from 'node:stream';
import {
  callWithCredentials,
  classifyUpstreamFailure,
  markByVerdict,
  noCredentialError,
  readUpstreamFailure,
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
  /**
   * Calls with one given key (a video belongs to the project of the key that made it): an answer that is the key's
   * fault marks it as `call` does and is thrown as `call` would answer with no key left (429 or 503, never the
   * upstream's 401); any other answer comes back as it came, whatever its status.
   */
  callWith(ctx: RequestContext, key: ApiKey, send: (key: ApiKey) => Promise<UpstreamResponse>): Promise<UpstreamResponse>;
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
    async callWith(ctx, key, send) {
      pool.recordRequest(key.id);
      ctx.state.set('credential', key.id);
      const response = await send(key);
      if (!KEY_FAULT_STATUSES.has(response.status)) return response;
      const failure = await readUpstreamFailure(response);
      const error = classifyUpstreamFailure(failure, secrets);
      if (!(await markByVerdict(pool, key.id, judgeOpenAiFailure(failure, error, now()), error))) {
        return { status: failure.status, headers: failure.headers, body: Readable.from([Buffer.from(failure.text)]) };
      }
      throw noCredentialError({ pool, accept: (entry) => entry.id === key.id, noun, now }, error);
    },
    byId: (id) => all.find((key) => key.id === id),
    all,
  };
}

/** Statuses that may be the key's fault (see judgeOpenAiFailure); any other answer is not read here. */
const KEY_FAULT_STATUSES = new Set([401, 403, 429]);
