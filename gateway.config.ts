import type { GatewayConfigFile } from '@gateway/core';

/**
 * The operator's config (DECISIONS §3). Secrets come from the environment ("env:NAME"); a credential whose
 * variable is unset is skipped with a warning at start-up. Licenses also come from GATEWAY_LICENSES=a,b.
 */
const config: GatewayConfigFile = {
  server: { host: '127.0.0.1', port: 8080 },
  licenses: ['env:GATEWAY_LICENSE'],
  adminKeys: ['env:GATEWAY_ADMIN_KEY'],
  store: { driver: 'sqlite', path: './data/gateway.db' },
  logging: { level: 'info', format: 'json' },
  platforms: {
    openai: {
      plugin: 'openai',
      baseUrl: 'https://api.openai.com',
      credentials: [{ apiKey: 'env:OPENAI_API_KEY' }],
    },
    claude: {
      plugin: 'claude',
      baseUrl: 'https://api.anthropic.com',
      // API keys and claude.ai session keys (exchanged for OAuth tokens) may be mixed; calls rotate over both.
      credentials: [{ apiKey: 'env:ANTHROPIC_API_KEY' }, { sessionKey: 'env:CLAUDE_SESSION_KEY' }],
    },
    gemini: {
      plugin: 'gemini',
      baseUrl: 'https://generativelanguage.googleapis.com',
      credentials: [{ apiKey: 'env:GEMINI_API_KEY' }],
    },
    pool: {
      plugin: 'token-pool',
      baseUrl: 'https://pool-upstream.example.com', // the OpenAI-compatible service the account tokens belong to
      rotation: 3,
      tokens: [
        { token: 'env:POOL_TOKEN_1', tier: 'premium' },
        { token: 'env:POOL_TOKEN_2', tier: 'basic' },
        { token: 'env:POOL_TOKEN_3', tier: 'basic' },
        { token: 'env:POOL_TOKEN_4', tier: 'basic' },
      ],
    },
  },
};

export default config;
