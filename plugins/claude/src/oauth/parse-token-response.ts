/** An OAuth token set as the gateway keeps it (store namespace `claude-oauth:<platform>`). */
export interface OAuthTokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms at which the access token stops working. */
  expiresAt: number;
  /** Epoch ms at which it was issued: with `expiresAt`, the token's lifetime. */
  obtainedAt: number;
  organizationUuid?: string;
}

/** Lifetime assumed when the token endpoint does not say (Claude tokens last hours). */
const DEFAULT_EXPIRES_IN_SECONDS = 3600;
/** Longest lifetime believed (30 days): beyond it a date is no longer a date (an absurd `expires_in`), and refreshing early is harmless. */
const MAX_EXPIRES_IN_SECONDS = 30 * 24 * 3600;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A token endpoint answer (`access_token`, `refresh_token`, `expires_in`, `organization`) → OAuthTokens, or
 * undefined when it carries no access token. A refresh answer without a new refresh token keeps the old one.
 */
export function parseTokenResponse(body: unknown, now: number, previous?: Pick<OAuthTokens, 'refreshToken' | 'organizationUuid'>): OAuthTokens | undefined {
  if (!isRecord(body) || typeof body.access_token !== 'string' || body.access_token === '') return undefined;
  const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? Math.min(body.expires_in, MAX_EXPIRES_IN_SECONDS) : DEFAULT_EXPIRES_IN_SECONDS;
  const refreshToken = typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : previous?.refreshToken;
  const organization = isRecord(body.organization) && typeof body.organization.uuid === 'string' ? body.organization.uuid : previous?.organizationUuid;
  return {
    accessToken: body.access_token,
    ...(refreshToken ? { refreshToken } : {}),
    expiresAt: now + expiresIn * 1000,
    obtainedAt: now,
    ...(organization ? { organizationUuid: organization } : {}),
  };
}
