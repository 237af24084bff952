import { expect } from 'chai';
import { collectSecrets } from '../../../core/config/collect-secrets';
import type { GatewayConfig } from '../../../core/config/config-types';

describe('collectSecrets', () => {
  it('collects licenses, admin keys, credentials and the password of a URL with userinfo', () => {
    const config = {
      licenses: ['lic-0000000001'],
      adminKeys: ['adm-0000000001'],
      platforms: {
        openai: { plugin: 'openai', baseUrl: 'http://gwuser:Sup3r%23SecretPass@127.0.0.1:9/openai', credentials: [{ apiKey: 'sk-upstream-000000000001' }] },
        claude: { plugin: 'claude', baseUrl: 'https://api.anthropic.com', claudeAiUrl: 'https://u:short@claude.test' },
      },
    } as unknown as GatewayConfig;
    expect(collectSecrets(config)).to.have.members(['lic-0000000001', 'adm-0000000001', 'Sup3r%23SecretPass', 'Sup3r#SecretPass', 'sk-upstream-000000000001', 'short']);
  });

  it('collects short secrets too (a local server\'s key), but not 1-3 characters, which any text contains', () => {
    const config = {
      licenses: ['lic7', 'li'],
      adminKeys: [],
      platforms: {
        local: { plugin: 'openai', baseUrl: 'http://127.0.0.1:8000', credentials: [{ apiKey: 'hunter2' }, { apiKey: 'x' }] },
        pool: { plugin: 'token-pool', baseUrl: 'http://127.0.0.1:8001', tokens: [{ token: 'tok-1', tier: 'basic' }] },
      },
    } as unknown as GatewayConfig;
    expect(collectSecrets(config)).to.have.members(['lic7', 'hunter2', 'tok-1']);
  });

  it('collects a third-party plugin\'s fields named like credentials (authToken, clientSecret), not its other strings', () => {
    const config = {
      licenses: [],
      adminKeys: [],
      platforms: {
        mine: { plugin: './my-plugin', baseUrl: 'http://127.0.0.1:8000', authHeader: 'x-tenant-auth', authToken: 'tenant-7f3a9c2e1b4d8a6f', oauth: { clientSecret: 'cs-0123456789', oauthTokenUrl: 'https://idp.test/token' } },
      },
    } as unknown as GatewayConfig;
    expect(collectSecrets(config)).to.have.members(['tenant-7f3a9c2e1b4d8a6f', 'cs-0123456789']);
  });
});
