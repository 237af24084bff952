import { expect } from 'chai';
import { startGateway } from '../../../test/helpers/start-gateway';
import { CLAUDE_DEFAULTS, resolveClaudeOptions } from '../src/options';

async function startupError(options: Record<string, unknown>): Promise<string> {
  try {
    const gw = await startGateway({ claude: { plugin: 'claude', baseUrl: 'http://127.0.0.1:9', ...options } });
    await gw.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected start-up to fail');
}

describe('claude options', () => {
  it('fills the public defaults (DECISIONS §3)', () => {
    expect(resolveClaudeOptions({ credentials: [] })).to.deep.equal({
      credentials: [],
      claudeAiUrl: 'https://claude.ai',
      oauthTokenUrl: 'https://platform.claude.com/v1/oauth/token',
      oauthClientId: '9d1c250a-e61b-44d9-88ed-5944d1962f5e',
      oauthRedirectUri: CLAUDE_DEFAULTS.oauthRedirectUri,
      oauthScopes: 'user:profile user:inference',
      anthropicVersion: '2023-06-01',
      defaultMaxTokens: 32000,
      defaultBudgetTokens: 16000,
      promptCaching: true,
    });
  });

  it('keeps operator values, joining a scope list and trimming a trailing slash', () => {
    const resolved = resolveClaudeOptions({ credentials: [{ apiKey: 'k' }], claudeAiUrl: 'http://sim/claude-ai/', oauthScopes: ['a', 'b'], anthropicVersion: '2026-10-21', defaultMaxTokens: 8000 });
    expect(resolved).to.deep.include({ claudeAiUrl: 'http://sim/claude-ai', oauthScopes: 'a b', anthropicVersion: '2026-10-21', defaultMaxTokens: 8000 });
  });

  it('stops start-up naming the platform and the field of a bad option', async () => {
    expect(await startupError({})).to.match(/platforms\.claude \(plugin "claude"\): .*credentials/);
    expect(await startupError({ credentials: [{ apiKey: 'k' }], defaultBudgetTokens: 10 })).to.match(/defaultBudgetTokens/);
    expect(await startupError({ credentials: [{ apiKey: 'k' }], claudeAiUrl: 'not a url' })).to.match(/claudeAiUrl/);
  });

  it('starts with a mix of API keys and session keys without contacting anyone', async () => {
    const gw = await startGateway({ claude: { plugin: 'claude', baseUrl: 'http://127.0.0.1:9', credentials: [{ apiKey: 'sk-ant-a' }, { sessionKey: 'sk-ant-sid01-b' }] } });
    await gw.close();
  });
});
