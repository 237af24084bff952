import { createCredentialPool, maskUrlCredentials, Stage, type CredentialPool, type GatewayPlugin, type UpstreamFailure } from '@gateway/core';
import { classifyClaudeError } from './classify-claude-error';
import { createClaudeSearchHandler } from './claude-search';
import { createClaudeCaller, type ClaudeSecret } from './create-claude-caller';
import { createClaudeAdminView } from './create-claude-admin-view';
import { createCountGeminiTokens } from './count-gemini-tokens';
import { createThinkingCaptureStage } from './create-thinking-capture-stage';
import { createClaudeModels } from './list-claude-models';
import { createClaudeOAuthClient } from './oauth/create-claude-oauth-client';
import { createOAuthTokenManager } from './oauth/create-oauth-token-manager';
import { claudeOptionsSchema, resolveClaudeOptions, type ClaudeOptions } from './options';
import { createClaudeRouter } from './route-claude';
import { createThinkingStore } from './thinking-store';
import { continuePausedTurns } from './paused-turns/continue-paused-turns';
import { toClaudeRequest } from './to-claude-request';

const PLUGIN_NAME = 'claude';

/** Pools of every mounted Claude platform, so shutdown writes their pending counters. */
const pools = new Set<CredentialPool<ClaudeSecret>>();

/** Anthropic Claude: Messages passed through, other formats translated; API keys and claude.ai session keys. */
const claudePlugin: GatewayPlugin<ClaudeOptions> = {
  name: PLUGIN_NAME,
  apiVersion: '^1',
  optionsSchema: claudeOptionsSchema,
  async apply(hooks, { key, options: raw, log, store, upstream, admin, onClose }) {
    const options = resolveClaudeOptions(raw);
    const pool = createCredentialPool<ClaudeSecret>({
      platform: key,
      store,
      log,
      credentials: options.credentials.map((credential) =>
        'apiKey' in credential
          ? { kind: 'apiKey', secret: { kind: 'apiKey', value: credential.apiKey }, key: credential.apiKey }
          : { kind: 'sessionKey', secret: { kind: 'sessionKey', value: credential.sessionKey }, key: credential.sessionKey },
      ),
    });
    await pool.load();
    pools.add(pool);
    const tokens = createOAuthTokenManager({
      platform: key,
      store,
      log,
      client: createClaudeOAuthClient({ http: upstream, timeouts: raw.timeouts, options }),
    });
    const sessionIds = pool.entries.filter((entry) => entry.kind === 'sessionKey').map((entry) => entry.id);
    await tokens.load(sessionIds);
    // A refresh still running at shutdown keeps the grace period: its rotated refresh token must be stored.
    onClose?.((shutdown) => tokens.settle(shutdown.graceOver));

    const secrets = pool.entries.map((entry) => entry.secret.value);
    const classify = (failure: UpstreamFailure) => classifyClaudeError(failure, secrets);
    const callClaude = createClaudeCaller({ pool, tokens, platform: raw, classify });
    const thinking = createThinkingStore(store, key, log);
    const tap = { name: PLUGIN_NAME, stage: Stage.PLATFORM };

    hooks.route.for(key).tap(
      tap,
      createClaudeRouter({
        models: createClaudeModels(callClaude, options.anthropicVersion, raw.models ?? []),
        countGeminiTokens: createCountGeminiTokens(callClaude, options),
        search: createClaudeSearchHandler({ call: callClaude, anthropicVersion: options.anthropicVersion, store, platform: key, searchModel: raw.searchModel }),
      }),
    );
    hooks.requestTransform.for(key).tapPromise(tap, (request, ctx) => toClaudeRequest(request, ctx, { options, thinking }));
    // A turn Anthropic paused is continued here for translated clients, which could not send it back themselves.
    hooks.upstreamCall.for(key).tapPromise(tap, continuePausedTurns(callClaude));
    // Clients of other formats cannot send Anthropic's thinking signatures back: keep them for the next turn.
    hooks.streamTransform.for(key).tap(tap, (stages, ctx) =>
      ctx.clientFormat === 'messages' ? stages : [...stages, createThinkingCaptureStage(thinking.save)],
    );
    hooks.errorClassify.for(key).tap(tap, classify);

    const view = createClaudeAdminView(pool, tokens);
    admin.view('credentials', view.render);
    admin.reset('credentials', view.reset);
    log.info('platform mounted', { baseUrl: maskUrlCredentials(raw.baseUrl), credentials: pool.entries.length, oauthCredentials: sessionIds.length });
  },
  async close() {
    for (const pool of pools) await pool.close().catch(() => undefined);
    pools.clear();
  },
};

export default claudePlugin;
