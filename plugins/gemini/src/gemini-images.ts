import {
  geminiMethodPath,
  acceptImageTask,
  createImageTaskGetHandler,
  detachContext,
  mapConcurrently,
  encodeImageItem,
  parseImageRequest,
  GatewayError,
  type CustomHandler,
  type FileLinks,
  type GatewaySettings,
  type ImageBase64Style,
  type ImageRequest,
  type ImageResult,
  type ImageTaskRunner,
  type RequestContext,
} from '@gateway/core';
import type { SafetySettings } from './create-safety-settings';
import { fromGenerateContentImages, fromImagenPredictions, noImageError, type GeminiImageAnswer } from './from-gemini-images';
import { bareModel, type GeminiJsonCaller } from './gemini-json';
import { DEFAULT_IMAGE_MODEL, inlineImageInputs, isImagenModel, toGeminiImageRequest, toImagenRequest } from './to-gemini-image-request';

export interface GeminiImageDeps {
  caller: GeminiJsonCaller;
  tasks: ImageTaskRunner;
  links: FileLinks;
  base64Style: ImageBase64Style;
  safety: SafetySettings;
  apiVersion: string;
  media: GatewaySettings['media'];
  /** The model of a request that names none (default DEFAULT_IMAGE_MODEL). */
  imageModel?: string;
}

/**
 * `images.generations` and `images.edits` on Gemini: Imagen models through `:predict` (`n` images in one call),
 * every other model through generateContent with the IMAGE modality (one call per image, `n` at once); `async=true`
 * runs as a stored task, answered by `images.get`.
 */
export function createGeminiImageHandlers(deps: GeminiImageDeps): { generations: CustomHandler; edits: CustomHandler; get: CustomHandler } {
  /**
   * Builds the upstream request (input images fetched and checked) and answers what sends it. Runs before any task
   * is accepted, so a request known to be invalid is its 400/415 on the POST, with `async=true` as without.
   */
  const prepareCalls = async (ctx: RequestContext, parsed: ImageRequest, model: string): Promise<(runCtx: RequestContext) => Promise<GeminiImageAnswer[]>> => {
    if (isImagenModel(model)) {
      const json = toImagenRequest(parsed);
      const path = geminiMethodPath(model, 'predict', deps.apiVersion);
      return async (runCtx) => [fromImagenPredictions(await deps.caller.json(runCtx, { method: 'POST', path, json }))];
    }
    const inputs = await inlineImageInputs(parsed.images, deps.media, ctx.signal, (index) => parsed.imageFields[index] ?? `image[${index}]`);
    const json = toGeminiImageRequest(parsed, inputs, deps.safety.forRequest(ctx));
    const path = geminiMethodPath(model, 'generateContent', deps.apiVersion);
    const calls = Array.from({ length: parsed.n ?? 1 });
    // All at once; the first failure aborts the others, whose images could no longer be answered.
    return (runCtx) =>
      mapConcurrently(calls, runCtx.signal, async (_call, _index, signal) => fromGenerateContentImages(await deps.caller.json(detachContext(runCtx, signal), { method: 'POST', path, json })), calls.length);
  };

  const create = (kind: ImageRequest['kind']): CustomHandler => async (request, ctx) => {
    const parsed = parseImageRequest(request, ctx, kind);
    if (parsed.stream) throw new GatewayError('GW_INVALID_REQUEST', `stream: platform "${ctx.platform}" cannot stream partial images`, { param: 'stream' });
    if (parsed.mask) throw new GatewayError('GW_INVALID_REQUEST', 'mask: Gemini image models take no mask; describe the area to change in the prompt', { param: 'mask' });
    const model = bareModel(parsed.model ?? deps.imageModel ?? DEFAULT_IMAGE_MODEL);
    const callUpstream = await prepareCalls(ctx, parsed, model);
    // An async task's image link lives as long as the task: one polled later must not name a link gone.
    const generate = async (runCtx: RequestContext, linkTtlMs?: number): Promise<ImageResult> => {
      const answers = await callUpstream(runCtx);
      const images = answers.flatMap((answer) => answer.images);
      if (images.length === 0) throw noImageError(answers.flatMap((answer) => answer.reasons));
      const data = await Promise.all(
        images.map((image) => encodeImageItem(image, { responseFormat: parsed.responseFormat, base64Style: deps.base64Style, publish: (file) => deps.links.publish(runCtx, file, { ttlMs: linkTtlMs }) })),
      );
      const result: ImageResult = { created: Math.floor(Date.now() / 1000), data };
      const usages = answers.flatMap((answer) => (answer.usage ? [answer.usage] : []));
      if (usages.length > 0) {
        result.usage = usages.reduce((sum, usage) => ({
          input_tokens: sum.input_tokens + usage.input_tokens,
          input_tokens_details: {
            image_tokens: sum.input_tokens_details.image_tokens + usage.input_tokens_details.image_tokens,
            text_tokens: sum.input_tokens_details.text_tokens + usage.input_tokens_details.text_tokens,
          },
          output_tokens: sum.output_tokens + usage.output_tokens,
          total_tokens: sum.total_tokens + usage.total_tokens,
        }));
      }
      return result;
    };
    if (parsed.async) return acceptImageTask(deps.tasks, (signal) => generate(detachContext(ctx, signal), deps.tasks.retentionMs), ctx);
    return { status: 200, json: await generate(ctx) };
  };
  return { generations: create('generation'), edits: create('edit'), get: createImageTaskGetHandler(deps.tasks) };
}
