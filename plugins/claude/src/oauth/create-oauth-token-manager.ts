import { GatewayError, isGatewayError, type Logger, type Store } from '@gateway/core';
import type { ClaudeOAuthClient } from './create-claude-oauth-client';
import { isCredentialRejection } from './oauth-errors';
import type { OAuthTokens } from './parse-token-response';

export interface OAuthTokenManagerOptions {
  /** The platform key: tokens live in store namespace `claude-oauth:<platform>`, keyed by credential id. */
  platform: string;
  store: Store;
  client: Pick<ClaudeOAuthClient, 'exchangeSessionKey' | 'refresh'>;
  log: Logger;
  now?: () => number;
}

/** A session-key credential as the manager needs it: a stable id, the key, and its masked form for logs. */
export interface SessionCredential {
  id: string;
  sessionKey: string;
  masked: string;
}

/**
 * The request that waits for a token. Only its `signal` is read, and only when it has to wait: core makes a
 * context's AbortSignal on first use, and most requests find a cached token.
 */
export interface TokenWaiter {
  readonly signal: AbortSignal;
}

/** Refresh this long before expiry at most; short-lived tokens refresh in the second half of their life. */
const MAX_REFRESH_MARGIN_MS = 5 * 60_000;

/** After a failed early refresh, requests keep the current token this long before one tries again. */
const EARLY_REFRESH_RETRY_MS = 30_000;

function refreshMargin(tokens: OAuthTokens): number {
  return Math.min(MAX_REFRESH_MARGIN_MS, Math.max(0, tokens.expiresAt - tokens.obtainedAt) / 2);
}

/**
 * How long a stored token set outlives its last renewal. A platform in use renews within hours; the tokens of one
 * taken out of the config (whose plugin never loads again to delete them, see `load`) are live credentials, and leave
 * the store after this. An idle platform's session key exchanges again then.
 */
export const STORED_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * OAuth tokens of the platform's session-key credentials: exchanged once, kept in the store (a restart reuses
 * them), refreshed before they expire and on demand after a 401. Per credential one exchange or refresh runs at
 * a time; concurrent callers wait for it instead of starting their own. A token that still works is refreshed in
 * the background: no request waits for that. A waiting request stops waiting when its client goes away; the shared
 * renewal carries on for the others.
 */
export function createOAuthTokenManager(options: OAuthTokenManagerOptions) {
  const now = options.now ?? Date.now;
  const namespace = `claude-oauth:${options.platform}`;
  const tokens = new Map<string, OAuthTokens>();
  const inflight = new Map<string, Promise<OAuthTokens>>();
  /** Per credential: no early refresh before this time (one just failed). */
  const earlyRefreshAfter = new Map<string, number>();

  async function obtain(credential: SessionCredential): Promise<OAuthTokens> {
    const current = tokens.get(credential.id);
    let next: OAuthTokens | undefined;
    if (current?.refreshToken) {
      try {
        next = await options.client.refresh({ ...current, refreshToken: current.refreshToken });
        options.log.info('oauth token refreshed', { credential: credential.masked, expiresAt: new Date(next.expiresAt).toISOString() });
      } catch (error) {
        if (!isCredentialRejection(error)) throw error;
        // A revoked refresh token: the session key can still start over.
        options.log.warn('oauth refresh refused, exchanging the session key again', { credential: credential.masked, reason: error.message });
      }
    }
    if (!next) {
      next = await options.client.exchangeSessionKey(credential.sessionKey);
      options.log.info('session key exchanged for an oauth token', { credential: credential.masked, expiresAt: new Date(next.expiresAt).toISOString() });
    }
    // The new token is in use at once: a refresh may already have revoked the old refresh token upstream, so a store
    // that cannot write (locked, disk full) must not cost it. A restart then starts over from the session key.
    tokens.set(credential.id, next);
    await options.store.set(namespace, credential.id, next, { ttlMs: STORED_TOKEN_TTL_MS }).catch((error: unknown) => {
      options.log.warn('oauth token kept in memory only: the store did not save it', {
        credential: credential.masked,
        reason: error instanceof Error ? error.message : String(error),
      });
    });
    return next;
  }

  /** One exchange/refresh per credential at a time. */
  function renew(credential: SessionCredential): Promise<OAuthTokens> {
    const running = inflight.get(credential.id);
    if (running) return running;
    const started = obtain(credential).finally(() => inflight.delete(credential.id));
    inflight.set(credential.id, started);
    // Every waiter may have gone (client disconnects): a later failure must not become an unhandled rejection.
    started.catch(noop);
    return started;
  }

  /** A renewal while the current token still works: requests go on with that token meanwhile. */
  function renewEarly(credential: SessionCredential): void {
    if (inflight.has(credential.id) || (earlyRefreshAfter.get(credential.id) ?? 0) > now()) return;
    renew(credential).then(
      () => earlyRefreshAfter.delete(credential.id),
      (error: unknown) => {
        earlyRefreshAfter.set(credential.id, now() + EARLY_REFRESH_RETRY_MS);
        options.log.warn('early oauth refresh failed, using the current token', {
          credential: credential.masked,
          reason: error instanceof Error ? error.message : String(error),
        });
      },
    );
  }

  /** The shared renewal, as long as the waiting request's client is there. */
  function waitFor(credential: SessionCredential, waiter: TokenWaiter | undefined): Promise<OAuthTokens> {
    if (!waiter) return renew(credential);
    const signal = waiter.signal;
    if (signal.aborted) return Promise.reject(clientGone(signal, credential));
    const shared = renew(credential);
    return new Promise<OAuthTokens>((resolve, reject) => {
      const onAbort = (): void => reject(clientGone(signal, credential));
      signal.addEventListener('abort', onAbort, { once: true });
      shared.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  return {
    /**
     * Waits (shutdown) for the renewals still running, a background refresh included, until `graceOver`: the token
     * endpoint may already have rotated the refresh token, so the new one must reach the store before it closes.
     */
    async settle(graceOver: Promise<void>): Promise<void> {
      if (inflight.size === 0) return;
      await Promise.race([Promise.allSettled([...inflight.values()]), graceOver]);
    },

    /**
     * Reads the stored tokens of these credentials (start-up), so the first call does not redo the exchange. Tokens of
     * a session key no longer configured are deleted: a retired account's refresh token is a live credential.
     */
    async load(ids: readonly string[]): Promise<void> {
      const configured = new Set(ids);
      // An unreadable row (a damaged file) is no token: deleted, and its credential exchanges the session key again.
      const unreadable: string[] = [];
      const rows = await options.store.list<OAuthTokens>(namespace, { onUnreadable: (key) => unreadable.push(key) });
      for (const key of unreadable) {
        options.log.warn('stored oauth token unreadable, deleted', { row: `${namespace}/${key}` });
        await options.store.delete(namespace, key);
      }
      for (const { key, value } of rows) {
        if (!configured.has(key)) await options.store.delete(namespace, key);
        else if (value && typeof value.accessToken === 'string') tokens.set(key, value);
      }
    },

    /**
     * A usable access token: the cached one while it works (close to expiry, a refresh starts in the background);
     * only without a token, or with an expired one, does the request wait for the exchange or refresh.
     */
    async accessToken(credential: SessionCredential, waiter?: TokenWaiter): Promise<string> {
      const current = tokens.get(credential.id);
      if (current && current.expiresAt > now()) {
        if (current.expiresAt - now() <= refreshMargin(current)) renewEarly(credential);
        return current.accessToken;
      }
      return (await waitFor(credential, waiter)).accessToken;
    },

    /** After the upstream refused `usedToken` (401): a new token, unless another request already replaced it. */
    async refreshAfterRejection(credential: SessionCredential, usedToken: string | undefined, waiter?: TokenWaiter): Promise<void> {
      const current = tokens.get(credential.id);
      if (current && usedToken !== undefined && current.accessToken !== usedToken) return;
      await waitFor(credential, waiter);
    },

    expiresAt(id: string): number | undefined {
      return tokens.get(id)?.expiresAt;
    },

    /** Forgets a credential's tokens (admin reset): the next call starts with a fresh exchange. */
    async forget(id: string): Promise<void> {
      tokens.delete(id);
      earlyRefreshAfter.delete(id);
      await options.store.delete(namespace, id);
    },
  };
}

export type OAuthTokenManager = ReturnType<typeof createOAuthTokenManager>;

function noop(): void {}

/** The client's own abort reason when it is a GatewayError (core's choice), else GW_CLIENT_CLOSED. */
function clientGone(signal: AbortSignal, credential: SessionCredential): GatewayError {
  const reason: unknown = signal.reason;
  if (isGatewayError(reason)) return reason;
  return new GatewayError('GW_CLIENT_CLOSED', `the client went away while the OAuth token of ${credential.masked} was being renewed`);
}
