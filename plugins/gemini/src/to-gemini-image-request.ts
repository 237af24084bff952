import { GatewayError, fetchMedia, imageInputBytes, type GatewaySettings, type ImageInput, type ImageRequest } from '@gateway/core';
import type { GeminiSafetySetting } from './options';
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

/**
 * The input images of an edit as Gemini `inlineData`: uploaded files and base64 as they are, URLs downloaded by the
 * gateway (core's fetchMedia: size limit, SSRF guard). An upstream file id cannot be read by Gemini: 400.
 */
export async function inlineImageInputs(inputs: readonly ImageInput[], media: GatewaySettings['media'], signal: AbortSignal): Promise<InlineImage[]> {
  return Promise.all(
    inputs.map(async (input, i) => {
      const bytes = imageInputBytes(input);
      if (bytes) return { mimeType: bytes.mediaType, data: bytes.data.toString('base64') };
      if (input.kind === 'url') {
        const fetched = await fetchMedia(input.url, { ...media, field: `image[${i}]`, signal });
        if (!fetched.mediaType.startsWith('image/')) {
          throw new GatewayError('GW_MEDIA_NOT_ALLOWED', `image[${i}]: the URL answered ${fetched.mediaType}, not an image`, { param: `image[${i}]` });
        }
        return { mimeType: fetched.mediaType, data: fetched.data.toString('base64') };
      }
      throw new GatewayError('GW_INVALID_REQUEST', `image[${i}]: file ids are not supported on Gemini; send the image as a file, a data URI or a URL`, { param: `image[${i}]` });
    }),
  );
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
