import { createCredentialPool, maskUrlCredentials, Stage, type GatewayPlugin } from '@gateway/core';
import { createPoolCaller } from './create-pool-caller';
import { createRotationSet } from './create-rotation-set';
import { createPoolModels, createUpstreamModelFetch } from './list-pool-models';
import { tokenPoolOptionsSchema, type TokenPoolOptions } from './options';
import { resolvePoolSettings } from './resolve-pool-settings';
import { createPoolRouter } from './route-pool';
import { toPoolRequest } from './to-pool-request';
import { createUpstreamModelNames } from './upstream-model-names';

const PLUGIN_NAME = 'token-pool';

/** A pool of account tokens in front of an OpenAI-compatible chat-completions upstream (spec `<platform_c>`). */
const tokenPoolPlugin: GatewayPlugin<TokenPoolOptions> = {
  name: PLUGIN_NAME,
  apiVersion: '^1',
  optionsSchema: tokenPoolOptionsSchema,
  async apply(hooks, { key, options, log, store, admin, onClose }) {
    const settings = resolvePoolSettings(key, options);
    const pool = createCredentialPool({
      platform: key,
      store,
      log,
      credentials: settings.tokens.map(({ token, tier }) => ({ kind: 'token', secret: token, tier, key: token })),
    });
    const rotation = createRotationSet({ pool, size: settings.rotation, log });
    await pool.load();
    await rotation.reconcile();
    // Marks are durable when made; request counters are batched, so the last ones are written on shutdown.
    onClose?.(() => pool.close());

    // What the upstream's model list says it serves: such a name is its own, never cut into a base and variant suffixes.
    const names = createUpstreamModelNames({ fetch: async (ctx) => (await fetchModels(ctx)).map((card) => card.id), extra: options.models ?? [], log });
    const callPool = createPoolCaller(rotation, settings, options, names.current);
    const fetchModels = createUpstreamModelFetch(callPool);
    const tap = { name: PLUGIN_NAME, stage: Stage.PLATFORM };
    hooks.route.for(key).tap(tap, createPoolRouter(createPoolModels(options, fetchModels, names, settings.premiumModels)));
    hooks.requestTransform.for(key).tapPromise(tap, async (request, ctx) => {
      const model = request.unified?.model ?? (typeof request.json?.model === 'string' ? request.json.model : undefined);
      const upstreamModels = model === undefined ? names.current() : await names.forModel(model, ctx);
      return toPoolRequest(request, { ...settings, upstreamModels }, ctx);
    });
    hooks.upstreamCall.for(key).tapPromise(tap, callPool);
    admin.view('pools', () => rotation.view());
    admin.reset('pools', (id) => rotation.reset(id));
    log.info('platform mounted', { baseUrl: maskUrlCredentials(options.baseUrl), tokens: settings.tokens.length, rotation: settings.rotation });
  },
};

export default tokenPoolPlugin;
