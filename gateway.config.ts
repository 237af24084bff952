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
  },
};

export default config;
