import { API_KEY_CREDENTIAL_SCHEMA, credentialListSchema } from '@gateway/core';

/** One upstream credential: an Anthropic API key, or a claude.ai session key exchanged for an OAuth token. */
export type ClaudeCredentialConfig = { apiKey: string } | { sessionKey: string };

/** Options of a Claude platform as written in the config (DECISIONS §3), beside the base keys every platform has. */
export interface ClaudeOptions {
  credentials: ClaudeCredentialConfig[];
  /** claude.ai, where a session key finds its organisation and authorises the OAuth client. */
  claudeAiUrl?: string;
  /** The OAuth token endpoint (authorization_code and refresh_token grants). */
  oauthTokenUrl?: string;
  /** The public Claude Code OAuth client id. */
  oauthClientId?: string;
  oauthRedirectUri?: string;
  /** Space-separated scopes, or a list. */
  oauthScopes?: string | string[];
  /** `anthropic-version` sent when the gateway builds the upstream request itself. */
  anthropicVersion?: string;
  /** `max_tokens` of a translated request that has none. */
  defaultMaxTokens?: number;
  /** `budget_tokens` of a `-thinking` model (or of thinking asked for without a budget). */
  defaultBudgetTokens?: number;
  /** Model of `/v1/alpha/search` (default: the request's model when it is a Claude model, else `claude-sonnet-4-6`). */
  searchModel?: string;
  /** Automatic prompt caching on translated requests that place no breakpoints of their own (default true). */
  promptCaching?: boolean;
}

/** The options with every default filled in: what the modules read. */
export interface ResolvedClaudeOptions {
  credentials: ClaudeCredentialConfig[];
  claudeAiUrl: string;
  oauthTokenUrl: string;
  oauthClientId: string;
  oauthRedirectUri: string;
  oauthScopes: string;
  anthropicVersion: string;
  defaultMaxTokens: number;
  defaultBudgetTokens: number;
  promptCaching: boolean;
}

/** Public defaults, as the Claude Code CLI uses them. */
export const CLAUDE_DEFAULTS = Object.freeze({
  claudeAiUrl: 'https://claude.ai',
  oauthTokenUrl: 'https://platform.claude.com/v1/oauth/token',
  oauthClientId: '9d1c250a-e61b-44d9-88ed-5944d1962f5e',
  oauthRedirectUri: 'https://platform.claude.com/oauth/code/callback',
  oauthScopes: 'user:profile user:inference',
  anthropicVersion: '2023-06-01',
  defaultMaxTokens: 32000,
  defaultBudgetTokens: 16000,
});

const url = { type: 'string', pattern: '^https?://[^\\s]+$', format: 'http-url' } as const;

export const claudeOptionsSchema = {
  type: 'object',
  required: ['credentials'],
  properties: {
    credentials: credentialListSchema(API_KEY_CREDENTIAL_SCHEMA, {
      type: 'object',
      required: ['sessionKey'],
      additionalProperties: false,
      properties: { sessionKey: { type: 'string', minLength: 1 } },
    }),
    claudeAiUrl: url,
    oauthTokenUrl: url,
    oauthClientId: { type: 'string', minLength: 1 },
    oauthRedirectUri: url,
    oauthScopes: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } }] },
    anthropicVersion: { type: 'string', minLength: 1 },
    defaultMaxTokens: { type: 'integer', minimum: 1 },
    defaultBudgetTokens: { type: 'integer', minimum: 1024 },
    searchModel: { type: 'string', minLength: 1 },
    promptCaching: { type: 'boolean' },
  },
} as const;

/** Fills the defaults; URLs lose a trailing slash so paths can be appended. */
export function resolveClaudeOptions(options: ClaudeOptions): ResolvedClaudeOptions {
  const scopes = options.oauthScopes ?? CLAUDE_DEFAULTS.oauthScopes;
  return {
    credentials: options.credentials,
    claudeAiUrl: (options.claudeAiUrl ?? CLAUDE_DEFAULTS.claudeAiUrl).replace(/\/+$/, ''),
    oauthTokenUrl: options.oauthTokenUrl ?? CLAUDE_DEFAULTS.oauthTokenUrl,
    oauthClientId: options.oauthClientId ?? CLAUDE_DEFAULTS.oauthClientId,
    oauthRedirectUri: options.oauthRedirectUri ?? CLAUDE_DEFAULTS.oauthRedirectUri,
    oauthScopes: Array.isArray(scopes) ? scopes.join(' ') : scopes,
    anthropicVersion: options.anthropicVersion ?? CLAUDE_DEFAULTS.anthropicVersion,
    defaultMaxTokens: options.defaultMaxTokens ?? CLAUDE_DEFAULTS.defaultMaxTokens,
    defaultBudgetTokens: options.defaultBudgetTokens ?? CLAUDE_DEFAULTS.defaultBudgetTokens,
    promptCaching: options.promptCaching ?? true,
  };
}
