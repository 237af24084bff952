import { Readable } from 'node:stream';
import {
  callWithCredentials,
  isGatewayError,
  sendUpstreamRequest,
  toGatewayError,
  type CredentialEntry,
  type CredentialPool,
  type FailureVerdict,
  type GatewayError,
  type PlatformBaseOptions,
  type RequestContext,
  type UpstreamFailure,
  type UpstreamRequest,
  type UpstreamResponse,
} from '@gateway/core';
import { claudeCooldownUntil } from './claude-cooldown-until';
import { mergeAnthropicBeta, OAUTH_BETA } from './merge-anthropic-beta';
import type { OAuthTokenManager, SessionCredential } from './oauth/create-oauth-token-manager';
import { isCredentialRejection } from './oauth/oauth-errors';

/** A configured credential: its kind and secret (the pool keeps it in memory only). */
export interface ClaudeSecret {
  kind: 'apiKey' | 'sessionKey';
  value: string;
}

export interface ClaudeCallerDeps {
  pool: CredentialPool<ClaudeSecret>;
  tokens: Pick<OAuthTokenManager, 'accessToken' | 'refreshAfterRejection'>;
  platform: Pick<PlatformBaseOptions, 'baseUrl' | 'timeouts'>;
  classify(failure: UpstreamFailure): GatewayError;
  now?: () => number;
}

/** How long a credential rests when claude.ai could not be reached for its token. */
const OVERLOAD_COOLDOWN_MS = 30_000;
const RATE_LIMIT_COOLDOWN_MS = 60_000;
/** A credential whose account has no credit left rests this long: a top-up is an operator's act, not seconds away. */
const NO_CREDIT_COOLDOWN_MS = 3_600_000;
/** Anthropic's answer for an account out of credit: a 400 `invalid_request_error` (or 402 `billing_error`) saying so. */
const NO_CREDIT = /credit balance is too low/i;

export function sessionCredential(entry: CredentialEntry<ClaudeSecret>): SessionCredential {
  return { id: entry.id, sessionKey: entry.secret.value, masked: entry.masked };
}

/** A failure that happened here (the OAuth exchange), shaped like an Anthropic error answer for the shared path. */
function localFailure(error: GatewayError): UpstreamResponse {
  const type = isCredentialRejection(error) ? 'authentication_error' : 'api_error';
  const body = JSON.stringify({ type: 'error', error: { type, message: error.message } });
  return { status: isCredentialRejection(error) ? 401 : 502, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(body)]) };
}

/** A token failure that says nothing about the credential: the client left, or shutdown cut the token call. */
function notTheCredentials(error: unknown, ctx: RequestContext): boolean {
  return ctx.signal.aborted || (isGatewayError(error) && error.code === 'GW_SHUTTING_DOWN');
}

/**
 * The platform's upstreamCall: the next healthy credential (round-robin) with its headers (`x-api-key`, or the
 * OAuth Bearer token plus the oauth beta flag added to the client's `anthropic-beta`). On a failure that is the
 * credential's fault the request moves to another credential while nothing has reached the client:
 * 429 → cooldown (retry-after / rate-limit reset headers); 401 on an OAuth token → one refresh and retry, then
 * invalid; 401 otherwise → invalid; 403 and 529 → another credential, none marked; a session key claude.ai refuses →
 * invalid with the reason.
 */
export function createClaudeCaller(deps: ClaudeCallerDeps) {
  const now = deps.now ?? Date.now;

  return function callClaude(request: UpstreamRequest, ctx: RequestContext): Promise<UpstreamResponse> {
    /** Per request: failures found before calling upstream, and the verdicts they stand for. */
    const deferred = new Map<string, GatewayError>();
    const verdicts = new Map<string, FailureVerdict>();
    const refreshed = new Set<string>();
    const usedTokens = new Map<string, string>();

    function failLocally(entry: CredentialEntry<ClaudeSecret>, error: GatewayError): UpstreamResponse {
      verdicts.set(entry.id, isCredentialRejection(error) ? { action: 'disable', state: 'invalid' } : { action: 'cooldown', untilMs: now() + OVERLOAD_COOLDOWN_MS });
      return localFailure(error);
    }

    async function send(entry: CredentialEntry<ClaudeSecret>): Promise<UpstreamResponse> {
      const pending = deferred.get(entry.id);
      if (pending) {
        deferred.delete(entry.id);
        return failLocally(entry, pending);
      }
      if (entry.secret.kind === 'apiKey') return sendUpstreamRequest(request, ctx, deps.platform, { 'x-api-key': entry.secret.value });
      let token: string;
      try {
        token = await deps.tokens.accessToken(sessionCredential(entry), ctx);
      } catch (error) {
        // The client left while waiting for the token, or the gateway is shutting down: nothing the credential did.
        if (notTheCredentials(error, ctx)) throw toGatewayError(error);
        return failLocally(entry, toGatewayError(error));
      }
      usedTokens.set(entry.id, token);
      return sendUpstreamRequest(request, ctx, deps.platform, {
        authorization: `Bearer ${token}`,
        'anthropic-beta': mergeAnthropicBeta(request.headers['anthropic-beta'], OAUTH_BETA),
      });
    }

    async function judge(failure: UpstreamFailure, _error: GatewayError, entry: CredentialEntry<ClaudeSecret>): Promise<FailureVerdict> {
      const preset = verdicts.get(entry.id);
      if (preset) {
        verdicts.delete(entry.id);
        return preset;
      }
      const { status } = failure;
      if (status === 401 && entry.secret.kind === 'sessionKey' && !refreshed.has(entry.id)) {
        refreshed.add(entry.id);
        try {
          await deps.tokens.refreshAfterRejection(sessionCredential(entry), usedTokens.get(entry.id), ctx);
        } catch (error) {
          if (notTheCredentials(error, ctx)) throw toGatewayError(error);
          // Reported through the next attempt, so the credential's reason is the refresh failure itself.
          deferred.set(entry.id, toGatewayError(error));
        }
        return { action: 'retry-same' };
      }
      if (status === 401) return { action: 'disable', state: 'invalid' };
      // `permission_error`: this key may not use what the request names (a model, a beta); another key may.
      if (status === 403) return { action: 'next' };
      if (status === 429) return { action: 'cooldown', untilMs: claudeCooldownUntil(failure.headers, now(), RATE_LIMIT_COOLDOWN_MS) };
      // Overloaded is the platform's state, not the key's: another key is tried, none is set aside (a rest would turn
      // one 529 into 429s for every request of the next half minute), and with none left the client gets the 529.
      if (status === 529) return { action: 'next' };
      // Out of credit is the account's state: limit-marked like a used-up quota, so the other credentials serve, where
      // the key stayed healthy and one request in N failed until an operator stepped in.
      if (status === 402 || (status === 400 && NO_CREDIT.test(failure.text))) {
        return { action: 'cooldown', untilMs: now() + NO_CREDIT_COOLDOWN_MS, state: 'limit_marked' };
      }
      return { action: 'fail' };
    }

    return callWithCredentials({
      pool: deps.pool,
      ctx,
      // Every credential once, plus one retry after a token refresh for each.
      maxAttempts: deps.pool.entries.length * 2,
      send,
      classify: deps.classify,
      judge,
      now,
    });
  };
}

export type ClaudeCaller = ReturnType<typeof createClaudeCaller>;
