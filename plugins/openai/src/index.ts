import { Stage, sendUpstreamRequest, type GatewayPlugin } from '@gateway/core';
import { createKeyRotation } from './create-key-rotation';
import { createListOpenAiModels } from './list-openai-models';
import { openAiOptionsSchema, type OpenAiOptions } from './options';
import { createOpenAiRouter } from './route-openai';

const PLUGIN_NAME = 'openai';

/** Any OpenAI-compatible upstream: chat completions and responses passed through, other formats translated. */
const openAiPlugin: GatewayPlugin<OpenAiOptions> = {
  name: PLUGIN_NAME,
  apiVersion: '^1',
  optionsSchema: openAiOptionsSchema,
  apply(hooks, { key, options, log }) {
    const keys = createKeyRotation(options.credentials.map((credential) => credential.apiKey), key);
    const tap = { name: PLUGIN_NAME, stage: Stage.PLATFORM };
    hooks.route.for(key).tap(tap, createOpenAiRouter(createListOpenAiModels(options, keys.nextKey)));
    hooks.upstreamCall.for(key).tapPromise(tap, (request, ctx) =>
      sendUpstreamRequest(request, ctx, options, { authorization: `Bearer ${keys.nextKey()}` }),
    );
    log.info('platform mounted', { baseUrl: options.baseUrl, credentials: options.credentials.length });
  },
};

export default openAiPlugin;
