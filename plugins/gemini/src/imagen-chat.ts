import { Readable } from 'node:stream';
import { GatewayError, geminiMethodPath, readUpstreamJson, refuseUntranslatableFields, type RequestContext, type UnifiedRequest, type UpstreamRequest, type UpstreamResponse } from '@gateway/core';
import type { GeminiCaller } from './create-gemini-caller';
import { fromImagenPredictions, noImageError } from './from-gemini-images';
import { IMAGEN_ASPECT_RATIOS, isImagenModel } from './to-gemini-image-request';

/** Imagen answers carry base64 images of a few megabytes. */
const PREDICTION_LIMIT_BYTES = 64 * 1024 * 1024;
const PREDICT_METHOD = ':predict';

/** Whether a translated request names an Imagen model, which Gemini serves by `:predict` only (no generateContent). */
export function isImagenChat(unified: UnifiedRequest): boolean {
  return isImagenModel(unified.model);
}

/**
 * A translated request (a chat, Messages, Responses or Gemini client) for an Imagen model as its `:predict` call
 * (spec 4.1: an image model can be called through chat): one image of the last user message's text, at the aspect
 * ratio asked for (a chat `size` maps to the nearest Imagen takes). Imagen takes a text prompt only: an image in
 * that message would be an edit, which Imagen cannot do, so it is a 400 rather than dropped.
 */
export function toImagenChatRequest(request: UpstreamRequest, unified: UnifiedRequest, apiVersion: string): UpstreamRequest {
  // What no Gemini upstream answers is refused here as on any other Gemini model (the codec's encoder is not run).
  refuseUntranslatableFields(unified, 'gemini');
  const forced = unified.toolChoice === 'required' || (typeof unified.toolChoice === 'object' && unified.toolChoice !== null);
  if (forced && (unified.tools?.length || unified.builtinTools?.length)) {
    throw new GatewayError('GW_INVALID_REQUEST', `tool_choice: ${unified.model} (Imagen) answers with an image and calls no tools`, { param: 'tool_choice' });
  }
  const last = [...unified.messages].reverse().find((message) => message.role === 'user');
  const parts = last?.content ?? [];
  if (parts.some((part) => part.type !== 'text')) {
    throw new GatewayError('GW_INVALID_REQUEST', `model: ${unified.model} (Imagen) takes a text prompt only and cannot edit images; use a Gemini image model such as gemini-2.5-flash-image`, { param: 'model' });
  }
  const prompt = parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n').trim();
  if (!prompt) throw new GatewayError('GW_INVALID_REQUEST', `messages: ${unified.model} (Imagen) needs a prompt: the last user message has no text`, { param: 'messages' });
  const ratio = unified.imageAspectRatio && IMAGEN_ASPECT_RATIOS.includes(unified.imageAspectRatio) ? { aspectRatio: unified.imageAspectRatio } : {};
  return {
    ...request,
    unified,
    path: geminiMethodPath(unified.model, 'predict', apiVersion),
    json: { instances: [{ prompt }], parameters: { sampleCount: 1, includeRaiReason: true, ...ratio } },
  };
}

/**
 * The platform's call, with Imagen requests of translated clients answered as generateContent answers them: the
 * prediction is read whole (`:predict` does not stream) and given back as a candidate of inline image parts, as one
 * SSE chunk when the client streams, so the Gemini codec and every client encoder take it as from a Gemini image
 * model. No image at all (filtered) is a 400 with Imagen's reasons.
 */
export function withImagenChat(call: GeminiCaller): GeminiCaller {
  return async (request: UpstreamRequest, ctx: RequestContext, options) => {
    if (request.mode !== 'translate' || !request.path.split('?')[0].endsWith(PREDICT_METHOD)) return call(request, ctx, options);
    const answer = await call({ ...request, stream: false }, ctx, options);
    const { images, reasons } = fromImagenPredictions(await readUpstreamJson(answer, PREDICTION_LIMIT_BYTES, request.path));
    if (images.length === 0) throw noImageError(reasons);
    const generated = {
      candidates: [{ content: { role: 'model', parts: images.map((image) => ({ inlineData: { mimeType: image.mediaType ?? 'image/png', data: image.data } })) }, finishReason: 'STOP', index: 0 }],
      ...(request.unified ? { modelVersion: request.unified.model } : {}),
    };
    const text = JSON.stringify(generated);
    return {
      status: 200,
      headers: { 'content-type': request.stream ? 'text/event-stream' : 'application/json' },
      body: Readable.from([Buffer.from(request.stream ? `data: ${text}\r\n\r\n` : text)]),
      credentials: answer.credentials,
    };
  };
}
