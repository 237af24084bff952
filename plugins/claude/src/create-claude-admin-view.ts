import type { AdminView, CredentialPool } from '@gateway/core';
import type { ClaudeSecret } from './create-claude-caller';
import type { OAuthTokenManager } from './oauth/create-oauth-token-manager';

/**
 * `GET /admin/credentials/{key}`: each credential masked with its kind (`apiKey` / `sessionKey`), state, cooldown
 * end and, for session keys, when the current OAuth token expires. A reset brings a credential back; a session key
 * that was invalid also drops its tokens, so the next call redoes the exchange.
 */
export function createClaudeAdminView(pool: CredentialPool<ClaudeSecret>, tokens: Pick<OAuthTokenManager, 'expiresAt' | 'forget'>) {
  return {
    render(): AdminView {
      return pool.view((entry) => {
        const expiresAt = entry.kind === 'sessionKey' ? tokens.expiresAt(entry.id) : undefined;
        return expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt).toISOString() };
      });
    },
    async reset(id: string): Promise<boolean> {
      const entry = pool.entries.find((candidate) => candidate.id === id);
      if (!entry) return false;
      if (entry.kind === 'sessionKey' && pool.state(id) === 'invalid') await tokens.forget(id);
      return pool.reset(id);
    },
  };
}
