import { Stage, createApiKeyPool, createFileLinks, createImageTaskRunner, maskUrlCredentials, type GatewayPlugin } from '@gateway/core';
import { createOpenAiCaller } from './call-openai';
import { createGenerationCaller } from './create-generation-caller';
import { createKeyRotation } from './create-key-rotation';
import { createOpenAiModels } from './list-openai-models';
import { createOpenAiImageHandlers } from './openai-images';
import { createOpenAiSearchHandler } from './openai-search';
import { createOpenAiVideoKeys } from './openai-video-keys';
import { createOpenAiVideoHandlers } from './openai-videos';
import { openAiOptionsSchema, type OpenAiOptions } from './options';
import { createOpenAiRouter } from './route-openai';

const PLUGIN_NAME = 'openai';

/**
 * Any OpenAI-compatible upstream: chat completions and responses passed through, other formats translated; images,
 * videos and web search through the upstream's own APIs.
 */
const openAiPlugin: GatewayPlugin<OpenAiOptions> = {
  name: PLUGIN_NAME,
  apiVersion: '^1',
  optionsSchema: openAiOptionsSchema,
  async apply(hooks, { key, options, log, store, gateway, admin, onClose }) {
    const apiKeys = options.credentials.map((credential) => credential.apiKey);
    // Each key's health (cooling down, invalid) is kept in the store, shown and reset under /admin/credentials.
    const pool = await createApiKeyPool({ key, store, log, admin, onClose }, apiKeys);
    const keys = createKeyRotation(pool, apiKeys);
    const call = createOpenAiCaller(options, keys, apiKeys);
    const tasks = createImageTaskRunner({ store, platform: key, log, mask: gateway.maskSecrets });
    await tasks.recover();
    onClose?.((shutdown) => tasks.close(shutdown));
    const images = createOpenAiImageHandlers({
      call,
      tasks,
      links: createFileLinks({ store, publicBaseUrl: gateway.publicBaseUrl }),
      base64Style: options.imageBase64 ?? 'data-uri',
    });
    const videos = createOpenAiVideoHandlers({ call, keys, videoKeys: createOpenAiVideoKeys({ store, platform: key, keys, call }), options, mask: gateway.maskSecrets });
    const tap = { name: PLUGIN_NAME, stage: Stage.PLATFORM };
    hooks.route.for(key).tap(
      tap,
      createOpenAiRouter({
        models: createOpenAiModels(options, call),
        'images.generations': images.generations,
        'images.edits': images.edits,
        'images.get': images.get,
        'videos.create': videos.create,
        'videos.remix': videos.remix,
        'videos.get': videos.get,
        'videos.content': videos.content,
        search: createOpenAiSearchHandler(call, { mode: options.search ?? 'responses', searchModel: options.searchModel, store, platform: key }),
      }, { responses: options.responses }),
    );
    hooks.upstreamCall.for(key).tapPromise(tap, createGenerationCaller(options, keys));
    log.info('platform mounted', { baseUrl: maskUrlCredentials(options.baseUrl), credentials: options.credentials.length });
  },
};

export default openAiPlugin;
