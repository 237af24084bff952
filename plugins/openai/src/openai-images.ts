import {
  GatewayError,
  acceptImageTask,
  chatCompletionsCodec,
  createImageTaskGetHandler,
  detachContext,
  isEventStream,
  parseImageRequest,
  type CustomHandler,
  type FileLinks,
  type ImageBase64Style,
  type ImageRequest,
  type ImageResult,
  type ImageTaskRunner,
  type RequestContext,
} from '@gateway/core';
import { toOpenAiCall, type OpenAiCaller } from './call-openai';
import { fromOpenAiImages } from './from-openai-images';
import { toOpenAiImageRequest } from './to-openai-image-request';

export interface OpenAiImageDeps {
  call: OpenAiCaller;
  tasks: ImageTaskRunner;
  links: FileLinks;
  base64Style: ImageBase64Style;
}

/** `images.generations`, `images.edits` (sync, `async=true`, or `stream=true` passed through) and `images.get`. */
export function createOpenAiImageHandlers(deps: OpenAiImageDeps): { generations: CustomHandler; edits: CustomHandler; get: CustomHandler } {
  const create = (kind: ImageRequest['kind']): CustomHandler => async (request, ctx) => {
    const parsed = parseImageRequest(request, ctx, kind);
    const call = toOpenAiCall(toOpenAiImageRequest(parsed));
    if (parsed.stream) {
      if (parsed.async) throw new GatewayError('GW_INVALID_REQUEST', 'async: a streamed image request cannot be asynchronous', { param: 'async' });
      // Streamed partial images are the upstream's own events, forwarded as they come.
      const upstream = await deps.call.sendOk(ctx, { ...call, headers: { ...call.headers, accept: 'text/event-stream' } });
      const type = upstream.headers['content-type'];
      // An upstream that ignored `stream` answers JSON: forwarded, the client would get an empty event stream.
      if (!isEventStream(type)) {
        upstream.body.destroy();
        throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream answered a streamed image request with ${String(type)}, not text/event-stream`);
      }
      return {
        status: 200,
        stream: upstream.body,
        headers: { 'content-type': typeof type === 'string' ? type : 'text/event-stream', 'cache-control': 'no-cache' },
        ...(upstream.credentials ? { credentials: upstream.credentials } : {}),
        // A stream cut or stalled ends as the API ends a failed one: an `error` event with the OpenAI error object.
        errorEvents: (error) => [{ event: 'error', data: JSON.stringify({ type: 'error', error: (chatCompletionsCodec.encodeError(error).body as { error: unknown }).error }) }],
      };
    }
    // An async task's image link lives as long as the task: one polled later must not name a link gone.
    const generate = async (runCtx: RequestContext, linkTtlMs?: number): Promise<ImageResult> =>
      fromOpenAiImages(await deps.call.json(runCtx, call), {
        responseFormat: parsed.responseFormat,
        base64Style: deps.base64Style,
        publish: (file) => deps.links.publish(runCtx, file, { ttlMs: linkTtlMs }),
      });
    if (parsed.async) return acceptImageTask(deps.tasks, (signal) => generate(detachContext(ctx, signal), deps.tasks.retentionMs), ctx);
    return { status: 200, json: await generate(ctx) };
  };
  return { generations: create('generation'), edits: create('edit'), get: createImageTaskGetHandler(deps.tasks) };
}
