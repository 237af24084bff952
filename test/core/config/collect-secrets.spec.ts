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
    expect(collectSecrets(config)).to.have.members(['lic-0000000001', 'adm-0000000001', 'Sup3r%23SecretPass', 'Sup3r#SecretPass', 'sk-upstream-000000000001']);
  });
});
