import type { Logger, Store } from '@gateway/core';
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

/** Refresh this long before expiry at most; short-lived tokens refresh in the second half of their life. */
const MAX_REFRESH_MARGIN_MS = 5 * 60_000;

function refreshMargin(tokens: OAuthTokens): number {
  return Math.min(MAX_REFRESH_MARGIN_MS, Math.max(0, tokens.expiresAt - tokens.obtainedAt) / 2);
}

/**
 * OAuth tokens of the platform's session-key credentials: exchanged once, kept in the store (a restart reuses
 * them), refreshed before they expire and on demand after a 401. Per credential one exchange or refresh runs at
 * a time; concurrent callers wait for it instead of starting their own.
 */
export function createOAuthTokenManager(options: OAuthTokenManagerOptions) {
  const now = options.now ?? Date.now;
  const namespace = `claude-oauth:${options.platform}`;
  const tokens = new Map<string, OAuthTokens>();
  const inflight = new Map<string, Promise<OAuthTokens>>();

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
    await options.store.set(namespace, credential.id, next);
    tokens.set(credential.id, next);
    return next;
  }

  /** One exchange/refresh per credential at a time. */
  function renew(credential: SessionCredential): Promise<OAuthTokens> {
    const running = inflight.get(credential.id);
    if (running) return running;
    const started = obtain(credential).finally(() => inflight.delete(credential.id));
    inflight.set(credential.id, started);
    return started;
  }

  return {
    /** Reads the stored tokens of these credentials (start-up), so the first call does not redo the exchange. */
    async load(ids: readonly string[]): Promise<void> {
      for (const id of ids) {
        const stored = await options.store.get<OAuthTokens>(namespace, id);
        if (stored && typeof stored.accessToken === 'string') tokens.set(id, stored);
      }
    },

    /**
     * A usable access token: the cached one, refreshed first when it is close to expiry. A refresh that fails for
     * a transient reason falls back to the cached token while that one still works.
     */
    async accessToken(credential: SessionCredential): Promise<string> {
      const current = tokens.get(credential.id);
      if (!current) return (await renew(credential)).accessToken;
      const left = current.expiresAt - now();
      if (left > refreshMargin(current)) return current.accessToken;
      try {
        return (await renew(credential)).accessToken;
      } catch (error) {
        if (left > 0 && !isCredentialRejection(error)) {
          options.log.warn('proactive oauth refresh failed, using the current token', { credential: credential.masked });
          return current.accessToken;
        }
        throw error;
      }
    },

    /** After the upstream refused `usedToken` (401): a new token, unless another request already replaced it. */
    async refreshAfterRejection(credential: SessionCredential, usedToken: string | undefined): Promise<void> {
      const current = tokens.get(credential.id);
      if (current && usedToken !== undefined && current.accessToken !== usedToken) return;
      await renew(credential);
    },

    expiresAt(id: string): number | undefined {
      return tokens.get(id)?.expiresAt;
    },

    /** Forgets a credential's tokens (admin reset): the next call starts with a fresh exchange. */
    async forget(id: string): Promise<void> {
      tokens.delete(id);
      await options.store.delete(namespace, id);
    },
  };
}

export type OAuthTokenManager = ReturnType<typeof createOAuthTokenManager>;
