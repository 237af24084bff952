import { GatewayError, fetchWithinBudget, imageInputBytes, mapConcurrently, mediaBudget, mediaTypeOf, type GatewaySettings, type ImageInput, type ImageRequest } from '@gateway/core';

import type { GeminiSafetySetting } from './options';
import { GEMINI_MEDIA_TYPES, toGeminiMediaType } from './gemini-media-types';
import { nearestAspectRatio } from './nearest-aspect-ratio';

/** The model of an image request that names none. */
export const DEFAULT_IMAGE_MODEL = 'gemini-2.5-flash-image';
/** The aspect ratios Imagen takes (`parameters.aspectRatio`). */
export const IMAGEN_ASPECT_RATIOS: readonly string[] = Object.freeze(['1:1', '3:4', '4:3', '9:16', '16:9']);
/** Output types Imagen can be asked for (`outputOptions.mimeType`). */
const IMAGEN_OUTPUT_TYPES: Readonly<Record<string, string>> = Object.freeze({ png: 'image/png', jpeg: 'image/jpeg', jpg: 'image/jpeg' });

/** Imagen models (`imagen-4.0-generate-001`) are served by `:predict`; every other model by generateContent. */
export function isImagenModel(model: string): boolean {
  return /^(models\/)?imagen-/i.test(model);
}

export interface InlineImage {
  mimeType: string;
  /** Base64. */
  data: string;
}

/** The image formats the platform takes as input (spec 4.1). */
const GEMINI_IMAGE_TYPES = GEMINI_MEDIA_TYPES.filter((type) => type.startsWith('image/'));

/**
 * The input images of an edit (fields `image[i]`) or a video's first frame (`input_reference`) as Gemini
 * `inlineData`: uploaded files and base64 as they are, URLs downloaded by the gateway (core's fetchMedia: size
 * limit, SSRF guard; a few at once, together within `media.maxBytes`). Whatever the source, only the image formats Gemini takes pass (415 otherwise); an upstream
 * file id cannot be read by Gemini: 400.
 */
export async function inlineImageInputs(
  inputs: readonly ImageInput[],
  media: GatewaySettings['media'],
  signal: AbortSignal,
  fieldOf: (index: number) => string = (index) => `image[${index}]`,
): Promise<InlineImage[]> {
  // As the chat path fetches media: a few downloads at once, all of them together within the request's budget.
  const budget = mediaBudget(media);
  return mapConcurrently(inputs, signal, async (input, i, fetchSignal) => {
    const field = fieldOf(i);
    const bytes = imageInputBytes(input) ?? (input.kind === 'url' ? await fetchWithinBudget(input.url, field, media, budget, fetchSignal) : undefined);
    if (!bytes) {
      throw new GatewayError('GW_INVALID_REQUEST', `${field}: file ids are not supported on Gemini; send the image as a file, a data URI or a URL`, { param: field });
    }
    return { mimeType: acceptedImageType(bytes.mediaType, bytes.data, field), data: bytes.data.toString('base64') };
  });
}

function acceptedImageType(declared: string, data: Buffer, field: string): string {
  const mediaType = mediaTypeOf(declared, data);
  const canonical = toGeminiMediaType(mediaType);
  if (canonical?.startsWith('image/')) return canonical;
  throw new GatewayError('GW_MEDIA_NOT_ALLOWED', `${field}: ${mediaType} is not an image format this platform takes; accepted: ${GEMINI_IMAGE_TYPES.join(', ')}`, { param: field });
}

/**
 * A generation or edit for a Gemini image model (DECISIONS §7): the prompt then the input images as one user turn,
 * `responseModalities: ["TEXT","IMAGE"]`, and the `size` as the nearest supported `imageConfig.aspectRatio`.
 * `quality`, `background` and `output_format` have no Gemini equivalent and are not sent.
 */
export function toGeminiImageRequest(request: ImageRequest, images: readonly InlineImage[], safetySettings: GeminiSafetySetting[]): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [{ text: request.prompt }, ...images.map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } }))];
  const aspectRatio = request.size ? nearestAspectRatio(request.size) : undefined;
  return {
    contents: [{ role: 'user', parts }],
    generationConfig: { responseModalities: ['TEXT', 'IMAGE'], ...(aspectRatio ? { imageConfig: { aspectRatio } } : {}) },
    safetySettings,
  };
}

/** A generation for Imagen `:predict`: `sampleCount` is `n`, the size the nearest Imagen aspect ratio. Imagen cannot edit. */
export function toImagenRequest(request: ImageRequest): Record<string, unknown> {
  if (request.kind === 'edit') {
    throw new GatewayError('GW_INVALID_REQUEST', `model: Imagen models cannot edit images on the Gemini API; use a Gemini image model such as ${DEFAULT_IMAGE_MODEL}`, { param: 'model' });
  }
  const parameters: Record<string, unknown> = { sampleCount: request.n ?? 1 };
  const aspectRatio = request.size ? nearestAspectRatio(request.size, IMAGEN_ASPECT_RATIOS) : undefined;
  if (aspectRatio) parameters.aspectRatio = aspectRatio;
  const format = typeof request.fields.output_format === 'string' ? IMAGEN_OUTPUT_TYPES[request.fields.output_format.toLowerCase()] : undefined;
  if (format) parameters.outputOptions = { mimeType: format };
  parameters.includeRaiReason = true;
  return { instances: [{ prompt: request.prompt }], parameters };
}
