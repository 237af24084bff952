import { createGateway, parseConfig } from '@gateway/core';
import { startSimulator } from '../simulator';

/**
 * `npm run demo`: the upstream simulator plus the gateway wired to it, so every endpoint can be tried with curl
 * or an SDK without any vendor key. License: `demo-license`; admin key: `demo-admin`.
 */
async function main(): Promise<void> {
  const sim = await startSimulator({ port: Number(process.env.SIM_PORT ?? 8090), chunks: 8, chunkDelayMs: 60 });
  const { config } = parseConfig(
    {
      server: { host: '127.0.0.1', port: 8080 },
      licenses: ['demo-license'],
      adminKeys: ['demo-admin'],
      store: { driver: 'sqlite', path: './data/demo.db' },
      logging: { level: 'info', format: 'pretty' },
      platforms: {
        openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-demo-openai-0001' }] },
        // One API key and one claude.ai session key, exchanged for an OAuth token at the simulated claude.ai.
        claude: {
          plugin: 'claude',
          baseUrl: sim.anthropicUrl,
          credentials: [{ apiKey: 'sk-ant-demo-0001' }, { sessionKey: 'sk-ant-sid01-demo-0002' }],
          claudeAiUrl: sim.claudeAiUrl,
          oauthTokenUrl: `${sim.claudeAiUrl}/v1/oauth/token`,
        },
        gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIza-demo-gemini-0001' }, { apiKey: 'AIza-demo-gemini-0002' }] },
        // The simulator refuses `limited` (rate limit) and `banned` (suspended) tokens: see GET /admin/pools/pool (key demo-admin).
        pool: {
          plugin: 'token-pool',
          baseUrl: sim.openaiUrl,
          rotation: 2,
          tokens: [{ token: 'demo-pool-limited-0001' }, { token: 'demo-pool-banned-0002' }, { token: 'demo-pool-0003', tier: 'premium' }, { token: 'demo-pool-0004' }],
        },
      },
    },
    `${process.cwd()}/demo-config`,
  );
  const gateway = await createGateway(config);
  const { url } = await gateway.listen();
  process.stdout.write(
    [
      '',
      `gateway   ${url}   (license: demo-license)`,
      `simulator ${sim.url}`,
      '',
      'Try:',
      `  curl -N ${url}/openai/v1/chat/completions -H 'Authorization: Bearer demo-license' -H 'content-type: application/json' \\`,
      `       -d '{"model":"gpt-4.1-mini","stream":true,"messages":[{"role":"user","content":"Hello gateway"}]}'`,
      `  curl -N ${url}/claude/v1/chat/completions -H 'Authorization: Bearer demo-license' -H 'content-type: application/json' \\`,
      `       -d '{"model":"claude-sonnet-4-6-thinking","stream":true,"messages":[{"role":"user","content":"Hello Claude [sim:thinking]"}]}'`,
      `  curl -N '${url}/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse' -H 'x-goog-api-key: demo-license' \\`,
      `       -H 'content-type: application/json' -d '{"contents":[{"parts":[{"text":"Hello Gemini"}]}]}'`,
      '',
    ].join('\n'),
  );
  const stop = async (): Promise<void> => {
    await gateway.close(2000);
    await sim.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
