import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { credentialBehaviour } from './directives';
import { bearerToken, headerValue, isRecord, sendJson } from './http-util';
import type { Exchange } from './types';

/**
 * claude.ai's session-key → OAuth flow, as public gateways drive it, mounted under `/claude-ai`:
 * - `GET /api/organizations` with `Cookie: sessionKey=…` lists the account's organisations (a key containing
 *   `invalid` answers 403, one containing `challenge` a Cloudflare-style HTML page);
 * - `POST /v1/oauth/{org}/authorize` (PKCE S256) answers `{redirect_uri}` carrying `code` and `state`;
 * - `POST /v1/oauth/token` takes the `authorization_code` and `refresh_token` grants (refresh tokens rotate) and
 *   answers tokens that live `accessTokenTtlSeconds`.
 * The Anthropic API accepts the access tokens as `Authorization: Bearer` only with the `oauth-2025-04-20` beta.
 * Tokens of a session key containing `limited`/`banned`/`quota` carry that word, so the API refuses them likewise.
 */

const OAUTH_BETA = 'oauth-2025-04-20';
const ACCESS_PREFIX = 'sk-ant-oat01-sim';
const REFRESH_PREFIX = 'sk-ant-ort01-sim';

interface PendingCode {
  challenge: string;
  clientId: string;
  redirectUri: string;
  state: string;
  sessionKey: string;
  organization: string;
  scope: string;
}

interface AccessToken {
  expiresAt: number;
}

export interface ClaudeAiOAuthOptions {
  accessTokenTtlSeconds: number;
}

export interface ClaudeAiControl {
  /** Makes every access token issued so far expired: the next API call with one answers 401. */
  expireAccessTokens(): void;
}

function sendAnthropicError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { type: 'error', error: { type, message } });
}

function sessionKeyOf(exchange: Exchange): string | undefined {
  const cookie = headerValue(exchange.req.headers.cookie) ?? '';
  const match = /(?:^|;\s*)sessionKey=([^;]+)/.exec(cookie);
  return match?.[1];
}

function organizationOf(sessionKey: string): string {
  const hex = createHash('sha256').update(sessionKey).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const CHALLENGE_PAGE = '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body>Enable JavaScript and cookies to continue</body></html>';

/** A valid session key, or the refusal already sent. */
function checkSession(exchange: Exchange): string | undefined {
  const sessionKey = sessionKeyOf(exchange);
  if (!sessionKey) {
    sendAnthropicError(exchange.res, 401, 'authentication_error', 'Missing session');
    return undefined;
  }
  if (sessionKey.includes('challenge')) {
    exchange.res.writeHead(403, { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge' });
    exchange.res.end(CHALLENGE_PAGE);
    return undefined;
  }
  if (sessionKey.includes('invalid')) {
    sendAnthropicError(exchange.res, 403, 'permission_error', 'Invalid authorization');
    return undefined;
  }
  return sessionKey;
}

function oauthError(res: ServerResponse, error: string, description: string): void {
  sendJson(res, 400, { error, error_description: description });
}

export function createClaudeAiOAuth(options: ClaudeAiOAuthOptions) {
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, AccessToken>();
  const refreshTokens = new Map<string, { sessionKey: string; organization: string; scope: string }>();
  let counter = 0;

  function issueTokens(res: ServerResponse, sessionKey: string, organization: string, scope: string): void {
    counter += 1;
    const behaviour = credentialBehaviour(sessionKey);
    const marker = behaviour ? `-${behaviour}` : '';
    const accessToken = `${ACCESS_PREFIX}${String(counter).padStart(6, '0')}${marker}-AA`;
    const refreshToken = `${REFRESH_PREFIX}${String(counter).padStart(6, '0')}-RR`;
    accessTokens.set(accessToken, { expiresAt: Date.now() + options.accessTokenTtlSeconds * 1000 });
    refreshTokens.set(refreshToken, { sessionKey, organization, scope });
    sendJson(res, 200, {
      token_type: 'Bearer',
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: options.accessTokenTtlSeconds,
      scope,
      organization: { uuid: organization, name: 'Simulated organization' },
      account: { uuid: organizationOf(`account:${sessionKey}`), email_address: 'user@example.com' },
    });
  }

  function listOrganizations(exchange: Exchange): void {
    const sessionKey = checkSession(exchange);
    if (!sessionKey) return;
    sendJson(exchange.res, 200, [
      { uuid: organizationOf(`api:${sessionKey}`), name: 'API organization', capabilities: ['api'] },
      { uuid: organizationOf(sessionKey), name: 'Personal', capabilities: ['chat', 'claude_pro'] },
    ]);
  }

  function authorize(exchange: Exchange, organization: string): void {
    const sessionKey = checkSession(exchange);
    if (!sessionKey) return;
    const body = isRecord(exchange.body) ? exchange.body : {};
    for (const field of ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method']) {
      if (typeof body[field] !== 'string' || body[field] === '') return sendAnthropicError(exchange.res, 400, 'invalid_request_error', `${field}: Field required`);
    }
    if (body.response_type !== 'code' || body.code_challenge_method !== 'S256') {
      return sendAnthropicError(exchange.res, 400, 'invalid_request_error', 'Invalid request format');
    }
    if (organization !== organizationOf(sessionKey)) {
      return sendAnthropicError(exchange.res, 403, 'permission_error', 'Organization has no chat capability for this session');
    }
    counter += 1;
    const code = `simcode${String(counter).padStart(6, '0')}${createHash('sha256').update(String(body.code_challenge)).digest('hex').slice(0, 16)}`;
    codes.set(code, {
      challenge: String(body.code_challenge),
      clientId: String(body.client_id),
      redirectUri: String(body.redirect_uri),
      state: String(body.state),
      sessionKey,
      organization,
      scope: String(body.scope),
    });
    const redirect = new URL(String(body.redirect_uri));
    redirect.searchParams.set('code', code);
    redirect.searchParams.set('state', String(body.state));
    sendJson(exchange.res, 200, { redirect_uri: redirect.toString() });
  }

  function token(exchange: Exchange): void {
    const body = isRecord(exchange.body) ? exchange.body : {};
    if (typeof body.client_id !== 'string' || body.client_id === '') return oauthError(exchange.res, 'invalid_request', 'client_id is required');
    if (body.grant_type === 'authorization_code') {
      const pending = typeof body.code === 'string' ? codes.get(body.code) : undefined;
      if (!pending) return oauthError(exchange.res, 'invalid_grant', 'Invalid or expired authorization code');
      codes.delete(String(body.code));
      const verifier = typeof body.code_verifier === 'string' ? body.code_verifier : '';
      if (createHash('sha256').update(verifier).digest('base64url') !== pending.challenge) {
        return oauthError(exchange.res, 'invalid_grant', 'Invalid code verifier');
      }
      if (body.client_id !== pending.clientId || body.redirect_uri !== pending.redirectUri || body.state !== pending.state) {
        return oauthError(exchange.res, 'invalid_grant', 'client_id, redirect_uri or state does not match the authorization');
      }
      return issueTokens(exchange.res, pending.sessionKey, pending.organization, pending.scope);
    }
    if (body.grant_type === 'refresh_token') {
      const grant = typeof body.refresh_token === 'string' ? refreshTokens.get(body.refresh_token) : undefined;
      if (!grant) return oauthError(exchange.res, 'invalid_grant', 'Refresh token not found or invalid');
      // Refresh tokens rotate: the one just used stops working.
      refreshTokens.delete(String(body.refresh_token));
      return issueTokens(exchange.res, grant.sessionKey, grant.organization, grant.scope);
    }
    oauthError(exchange.res, 'unsupported_grant_type', `grant_type ${String(body.grant_type)} is not supported`);
  }

  return {
    /** The `/claude-ai` vendor: claude.ai's organisations and authorize endpoints, and the token endpoint. */
    async handle(exchange: Exchange): Promise<void> {
      const { method, path } = exchange;
      if (method === 'GET' && path === '/api/organizations') return listOrganizations(exchange);
      const authorizeMatch = /^\/v1\/oauth\/([^/]+)\/authorize$/.exec(path);
      if (method === 'POST' && authorizeMatch) return authorize(exchange, decodeURIComponent(authorizeMatch[1]));
      if (method === 'POST' && path === '/v1/oauth/token') return token(exchange);
      sendJson(exchange.res, 404, { type: 'error', error: { type: 'not_found_error', message: `Not found: ${method} ${path}` } });
    },

    /**
     * Checks an OAuth access token on the Anthropic API before the API handler runs. Answers (and returns true) when
     * the token is refused; other credentials (API keys, bearer keys not issued here) are left to the API handler.
     */
    refuseAnthropicBearer(exchange: Exchange): boolean {
      const token = bearerToken(exchange.req);
      if (!token || !token.startsWith(ACCESS_PREFIX) || headerValue(exchange.req.headers['x-api-key'])) return false;
      const beta = (headerValue(exchange.req.headers['anthropic-beta']) ?? '').split(',').map((flag) => flag.trim());
      if (!beta.includes(OAUTH_BETA)) {
        sendAnthropicError(exchange.res, 401, 'authentication_error', 'OAuth authentication is currently not supported.');
        return true;
      }
      const known = accessTokens.get(token);
      if (!known) {
        sendAnthropicError(exchange.res, 401, 'authentication_error', 'Invalid bearer token');
        return true;
      }
      if (known.expiresAt <= Date.now()) {
        sendAnthropicError(exchange.res, 401, 'authentication_error', 'OAuth token has expired. Please obtain a new token or refresh your existing token.');
        return true;
      }
      return false;
    },

    control: {
      expireAccessTokens(): void {
        for (const entry of accessTokens.values()) entry.expiresAt = 0;
      },
    } satisfies ClaudeAiControl,
  };
}
