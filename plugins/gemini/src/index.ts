import { Stage, createApiKeyPool, createFileLinks, createImageTaskRunner, maskUrlCredentials, type GatewayPlugin } from '@gateway/core';
import { classifyGeminiFailure, maskGeminiSecrets } from './classify-gemini-failure';
import { createCountMessagesTokens } from './count-messages-tokens';
import { createFunctionNameStage } from './create-function-name-stage';
import { createGeminiCaller } from './create-gemini-caller';
import { createSafetySettings } from './create-safety-settings';
import { createSignatureCaptureStage } from './create-signature-capture-stage';
import { createGeminiImageHandlers } from './gemini-images';
import { createGeminiJsonCaller } from './gemini-json';
import { createGeminiSearchHandler } from './gemini-search';
import { withImagenChat } from './imagen-chat';
import { createGeminiVideoHandlers } from './gemini-videos';
import { createGeminiModels } from './list-gemini-models';
import { geminiOptionsSchema, type GeminiOptions } from './options';
import { createGeminiRouter } from './route-gemini';
import { shapeGeminiRequest } from './shape-gemini-request';
import { createSignatureMemo, signatureScope } from './signature-memo';

const PLUGIN_NAME = 'gemini';

/** Google Gemini API: native generateContent passed through, other formats translated, API keys rotated. */
const geminiPlugin: GatewayPlugin<GeminiOptions> = {
  name: PLUGIN_NAME,
  apiVersion: '^1',
  optionsSchema: geminiOptionsSchema,
  async apply(hooks, { key, options, log, store, gateway, admin, onClose }) {
    const secrets = options.credentials.map((credential) => credential.apiKey);
    const pool = await createApiKeyPool({ key, store, log, admin, onClose }, secrets);

    const apiVersion = options.apiVersion ?? 'v1beta';
    const safety = createSafetySettings(options.safetySettings);
    const call = createGeminiCaller({ platform: key, pool, upstream: options, safety, secrets });
    const countMessagesTokens = createCountMessagesTokens({ apiVersion, media: gateway.media }, call);
    const tasks = createImageTaskRunner({ store, platform: key, log, mask: gateway.maskSecrets });
    await tasks.recover();
    onClose?.((shutdown) => tasks.close(shutdown));
    const caller = createGeminiJsonCaller(call);
    const images = createGeminiImageHandlers({
      caller,
      tasks,
      links: createFileLinks({ store, publicBaseUrl: gateway.publicBaseUrl }),
      base64Style: options.imageBase64 ?? 'data-uri',
      safety,
      apiVersion,
      media: gateway.media,
      imageModel: options.imageModel,
    });
    const videos = createGeminiVideoHandlers({
      caller,
      upstream: options,
      apiVersion,
      media: gateway.media,
      videoModel: options.videoModel,
      store,
      platform: key,
      mask: (text) => maskGeminiSecrets(text, secrets),
    });
    const search = createGeminiSearchHandler({ caller, apiVersion, safety, store, platform: key, searchModel: options.searchModel });
    const tap = { name: PLUGIN_NAME, stage: Stage.PLATFORM };
    hooks.route.for(key).tap(
      tap,
      createGeminiRouter({
        models: createGeminiModels({ apiVersion, extraModels: options.models ?? [] }, call),
        countMessagesTokens,
        media: {
          'images.generations': images.generations,
          'images.edits': images.edits,
          'images.get': images.get,
          'videos.create': videos.create,
          'videos.remix': videos.remix,
          'videos.get': videos.get,
          'videos.content': videos.content,
          search,
        },
      }),
    );
    // Clients of other formats have no place for thought signatures: keep them for the next turn of the tool loop.
    const signatures = createSignatureMemo(store, key, log);
    hooks.requestTransform.for(key).tapPromise(tap, (request, ctx) => shapeGeminiRequest(request, ctx, { apiVersion, safety, media: gateway.media, signatures }));
    hooks.upstreamCall.for(key).tapPromise(tap, withImagenChat(call));
    // Function names the encoder renamed go back first: signatures are kept under the names the client sends back.
    hooks.streamTransform.for(key).tap(tap, (stages, ctx) => {
      const names = createFunctionNameStage(ctx);
      const named = names ? [...stages, names] : stages;
      return ctx.clientFormat === 'gemini' ? named : [...named, createSignatureCaptureStage((call, signature) => signatures.save(call, signature, signatureScope(ctx)))];
    });
    hooks.errorClassify.for(key).tap(tap, (failure, ctx) => classifyGeminiFailure(failure, ctx.endpoint, secrets));
    log.info('platform mounted', { baseUrl: maskUrlCredentials(options.baseUrl), credentials: secrets.length, safetySettings: options.safetySettings ? 'configured' : 'default (all off)' });
  },
};

export default geminiPlugin;
