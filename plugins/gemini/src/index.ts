import { Stage, createCredentialPool, type GatewayPlugin } from '@gateway/core';
import { classifyGeminiFailure } from './classify-gemini-failure';
import { createCountMessagesTokens } from './count-messages-tokens';
import { createGeminiCaller } from './create-gemini-caller';
import { createSafetySettings } from './create-safety-settings';
import { createGeminiModelLists } from './list-gemini-models';
import { geminiOptionsSchema, type GeminiOptions } from './options';
import { createGeminiRouter } from './route-gemini';
import { shapeGeminiRequest } from './shape-gemini-request';

const PLUGIN_NAME = 'gemini';

/**
 * Pools of every mounted Gemini platform, flushed (request counters) on shutdown. `close` has no context, so a
 * process running several gateways flushes them all; a pool whose gateway closed earlier has nothing left to write.
 */
const flushers = new Set<() => Promise<void>>();

/** Google Gemini API: native generateContent passed through, other formats translated, API keys rotated. */
const geminiPlugin: GatewayPlugin<GeminiOptions> = {
  name: PLUGIN_NAME,
  apiVersion: '^1',
  optionsSchema: geminiOptionsSchema,
  async apply(hooks, { key, options, log, store, gateway, admin }) {
    const secrets = options.credentials.map((credential) => credential.apiKey);
    const pool = createCredentialPool({ platform: key, store, log, credentials: secrets.map((secret) => ({ kind: 'apiKey', secret, key: secret })) });
    await pool.load();
    flushers.add(pool.flush);
    admin.view('credentials', () => pool.view());
    admin.reset('credentials', (id) => pool.reset(id));

    const apiVersion = options.apiVersion ?? 'v1beta';
    const safety = createSafetySettings(options.safetySettings);
    const call = createGeminiCaller({ platform: key, pool, upstream: options, safety, secrets });
    const lists = createGeminiModelLists({ apiVersion, extraModels: options.models ?? [] }, call);
    const countMessagesTokens = createCountMessagesTokens({ apiVersion, media: gateway.media }, call);
    const tap = { name: PLUGIN_NAME, stage: Stage.PLATFORM };
    hooks.route.for(key).tap(tap, createGeminiRouter({ openAiModels: lists.openAi, geminiModels: lists.native, countMessagesTokens }));
    hooks.requestTransform.for(key).tapPromise(tap, (request, ctx) => shapeGeminiRequest(request, ctx, { apiVersion, safety, media: gateway.media }));
    hooks.upstreamCall.for(key).tapPromise(tap, call);
    hooks.errorClassify.for(key).tap(tap, (failure, ctx) => classifyGeminiFailure(failure, ctx.endpoint, secrets));
    log.info('platform mounted', { baseUrl: options.baseUrl, credentials: secrets.length, safetySettings: options.safetySettings ? 'configured' : 'default (all off)' });
  },
  async close() {
    await Promise.allSettled([...flushers].map((flush) => flush()));
  },
};

export default geminiPlugin;
