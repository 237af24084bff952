import { GatewayError, isGatewayError, readUpstreamBody, type UpstreamClient, type UpstreamTimeouts } from '@gateway/core';
import type { ResolvedClaudeOptions } from '../options';
import { boundOAuthTimeouts } from './bound-oauth-timeouts';
import { createPkce, type Pkce } from './create-pkce';
import { credentialRejected, oauthUnavailable } from './oauth-errors';
import { parseTokenResponse, type OAuthTokens } from './parse-token-response';
import { pickChatOrganization } from './pick-chat-organization';

export interface ClaudeOAuthClientDeps {
  http: UpstreamClient;
  /** The platform's timeouts; the OAuth calls use them capped (see boundOAuthTimeouts). */
  timeouts: UpstreamTimeouts;
  options: Pick<ResolvedClaudeOptions, 'claudeAiUrl' | 'oauthTokenUrl' | 'oauthClientId' | 'oauthRedirectUri' | 'oauthScopes'>;
  now?: () => number;
  pkce?: () => Pkce;
}

interface JsonAnswer {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
}

/** OAuth answers are small; anything bigger is not what we asked for. */
const ANSWER_LIMIT = 1024 * 1024;

/** claude.ai sits behind a bot check that turns away requests without browser headers. */
const BROWSER_HEADERS = {
  accept: 'application/json',
  'accept-language': 'en-US,en;q=0.9',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function upstreamMessage(answer: JsonAnswer): string {
  const body = answer.json as { error?: unknown; error_description?: unknown } | undefined;
  const error = body?.error;
  if (typeof error === 'string') return typeof body?.error_description === 'string' ? `${error}: ${body.error_description}` : error;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return answer.text.slice(0, 200).trim();
}

/** A Cloudflare or login page instead of JSON: the session cannot be used as it is. */
function isChallengePage(answer: JsonAnswer): boolean {
  return answer.contentType.includes('text/html') || /^\s*</.test(answer.text);
}

/**
 * The claude.ai session-key → OAuth exchange that public gateways use, and the refresh grant:
 * (1) `GET {claudeAiUrl}/api/organizations` with the session cookie finds the organisation with chat capability;
 * (2) `POST {claudeAiUrl}/v1/oauth/{org}/authorize` with a PKCE S256 challenge answers a redirect URI holding `code`;
 * (3) `POST {oauthTokenUrl}` with `grant_type=authorization_code` (and later `refresh_token`) answers the tokens.
 * A refused credential throws `credentialRejected`; anything else that goes wrong (a stall that outlasts the
 * bounded timeouts included) throws a transient error.
 */
export function createClaudeOAuthClient(deps: ClaudeOAuthClientDeps) {
  const { http, options } = deps;
  const timeouts = boundOAuthTimeouts(deps.timeouts);
  const now = deps.now ?? Date.now;
  const makePkce = deps.pkce ?? createPkce;

  /** When the calls of one operation must be done (a monotonic clock: this is about timers, not token lifetimes). */
  function startDeadline(): number {
    return performance.now() + timeouts.totalMs;
  }

  /** `step` names the call in errors, without secrets: the admin view shows it as the credential's reason. */
  async function call(step: string, deadline: number, method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<JsonAnswer> {
    const left = Math.ceil(deadline - performance.now());
    if (left <= 0) throw new GatewayError('GW_UPSTREAM_TIMEOUT', `${step}: not started, the OAuth exchange took longer than ${timeouts.totalMs}ms`);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    try {
      const response = await http.send({
        url,
        method,
        headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: payload,
        // `left` never exceeds the total: the deadline was set that far ahead.
        timeouts: { ...timeouts, totalMs: left },
      });
      const text = (await readUpstreamBody(response, ANSWER_LIMIT)).toString('utf8');
      const type = response.headers['content-type'];
      return { status: response.status, contentType: String(Array.isArray(type) ? type[0] : type ?? ''), text, json: parseJson(text) };
    } catch (error) {
      if (!isGatewayError(error)) throw error;
      throw new GatewayError(error.code, `${step}: ${error.message}`, { status: error.status, cause: error });
    }
  }

  function cookieHeaders(sessionKey: string): Record<string, string> {
    return { ...BROWSER_HEADERS, cookie: `sessionKey=${sessionKey}`, origin: options.claudeAiUrl, referer: `${options.claudeAiUrl}/new` };
  }

  async function findOrganization(sessionKey: string, deadline = startDeadline()): Promise<string> {
    const secrets = [sessionKey];
    const answer = await call('claude.ai /api/organizations', deadline, 'GET', `${options.claudeAiUrl}/api/organizations`, cookieHeaders(sessionKey));
    if (answer.status === 401 || answer.status === 403 || (answer.status >= 300 && answer.status < 400)) {
      const detail = isChallengePage(answer) ? 'a challenge page' : upstreamMessage(answer) || 'no reason given';
      throw credentialRejected(`claude.ai rejected the session key (HTTP ${answer.status} from /api/organizations: ${detail})`, secrets);
    }
    if (answer.status >= 200 && answer.status < 300 && isChallengePage(answer)) {
      throw credentialRejected('claude.ai answered /api/organizations with a challenge page instead of JSON; the session key cannot be used', secrets);
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw oauthUnavailable(`claude.ai /api/organizations answered HTTP ${answer.status}: ${upstreamMessage(answer)}`, secrets);
    }
    const org = pickChatOrganization(answer.json);
    if (!org) throw credentialRejected('the session key has no claude.ai organisation with chat capability', secrets);
    return org;
  }

  async function authorize(sessionKey: string, organization: string, pkce: Pkce, deadline = startDeadline()): Promise<string> {
    const secrets = [sessionKey];
    const url = `${options.claudeAiUrl}/v1/oauth/${encodeURIComponent(organization)}/authorize`;
    const answer = await call('claude.ai authorize', deadline, 'POST', url, cookieHeaders(sessionKey), {
      response_type: 'code',
      client_id: options.oauthClientId,
      organization_uuid: organization,
      redirect_uri: options.oauthRedirectUri,
      scope: options.oauthScopes,
      state: pkce.state,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
    if (answer.status === 401 || answer.status === 403) {
      throw credentialRejected(`claude.ai refused to authorise the OAuth client (HTTP ${answer.status}: ${upstreamMessage(answer)})`, secrets);
    }
    const redirect = (answer.json as { redirect_uri?: unknown } | undefined)?.redirect_uri;
    if (answer.status < 200 || answer.status >= 300 || typeof redirect !== 'string') {
      throw oauthUnavailable(`claude.ai authorize answered HTTP ${answer.status} without a redirect_uri`, secrets);
    }
    let code: string | null;
    let state: string | null;
    try {
      const parsed = new URL(redirect);
      code = parsed.searchParams.get('code');
      state = parsed.searchParams.get('state');
    } catch {
      code = null;
      state = null;
    }
    if (!code) throw oauthUnavailable('claude.ai authorize answered a redirect_uri without a code', secrets);
    if (state !== null && state !== pkce.state) throw oauthUnavailable('claude.ai authorize answered another OAuth state than the one sent', secrets);
    return code;
  }

  async function tokenGrant(body: Record<string, string>, secrets: string[], deadline: number, previous?: OAuthTokens): Promise<OAuthTokens> {
    const answer = await call(`OAuth token endpoint (${body.grant_type})`, deadline, 'POST', options.oauthTokenUrl, { accept: 'application/json' }, body);
    if (answer.status === 400 || answer.status === 401 || answer.status === 403) {
      throw credentialRejected(`the OAuth token endpoint refused the ${body.grant_type} grant (HTTP ${answer.status}: ${upstreamMessage(answer)})`, secrets);
    }
    const tokens = answer.status >= 200 && answer.status < 300 ? parseTokenResponse(answer.json, now(), previous) : undefined;
    if (!tokens) throw oauthUnavailable(`the OAuth token endpoint answered HTTP ${answer.status} without an access token`, secrets);
    return tokens;
  }

  return {
    findOrganization,
    authorize,

    /** All three steps, within one total timeout: a fresh token set for a session key. */
    async exchangeSessionKey(sessionKey: string): Promise<OAuthTokens> {
      const deadline = startDeadline();
      const organization = await findOrganization(sessionKey, deadline);
      const pkce = makePkce();
      const code = await authorize(sessionKey, organization, pkce, deadline);
      const tokens = await tokenGrant(
        {
          grant_type: 'authorization_code',
          code,
          code_verifier: pkce.verifier,
          client_id: options.oauthClientId,
          redirect_uri: options.oauthRedirectUri,
          state: pkce.state,
        },
        [sessionKey, code],
        deadline,
      );
      return tokens.organizationUuid ? tokens : { ...tokens, organizationUuid: organization };
    },

    /** A new access token (and usually a new refresh token) for a stored token set. */
    refresh(previous: OAuthTokens & { refreshToken: string }): Promise<OAuthTokens> {
      return tokenGrant(
        { grant_type: 'refresh_token', refresh_token: previous.refreshToken, client_id: options.oauthClientId },
        [previous.refreshToken, previous.accessToken],
        startDeadline(),
        previous,
      );
    },
  };
}

export type ClaudeOAuthClient = ReturnType<typeof createClaudeOAuthClient>;
