import { GatewayError, type GatewaySettings, type VideoRequest } from '@gateway/core';
import { nearestAspectRatio } from './nearest-aspect-ratio';
import { inlineImageInputs } from './to-gemini-image-request';

/** The model of a video request that names none. */
export const DEFAULT_VIDEO_MODEL = 'veo-3.0-generate-001';
/** What Veo makes when a request names no duration or size: 8 s at 16:9, 720p (Gemini API video guide). */
export const VEO_DEFAULT_SECONDS = '8';
export const VEO_DEFAULT_SIZE = '1280x720';
/** The aspect ratios Veo takes. */
export const VEO_ASPECT_RATIOS: readonly string[] = Object.freeze(['16:9', '9:16']);

/** Veo 2 makes 720p only, and takes no `resolution` (Veo 3 added it, and 1080p). */
const VEO_2 = /^(?:models\/)?veo-2\./;

/**
 * What Veo makes for a requested `size`: the nearest aspect ratio it takes (none when the size is unreadable: Veo's
 * 16:9), at `1080p` when the shorter side is 1080 or more, else `720p`, the resolution to ask for (none on Veo 2, which
 * makes 720p only); `size` is the frame that comes out.
 */
export function veoFormat(size: string, model = ''): { aspectRatio?: string; resolution?: '720p' | '1080p'; size: string } {
  const aspectRatio = nearestAspectRatio(size, VEO_ASPECT_RATIOS);
  const [width, height] = size.split('x').map(Number);
  const veo2 = VEO_2.test(model);
  const resolution = !veo2 && Math.min(width, height) >= 1080 ? '1080p' : '720p';
  const [short, long] = resolution === '1080p' ? [1080, 1920] : [720, 1280];
  return { aspectRatio, ...(veo2 ? {} : { resolution }), size: aspectRatio === '9:16' ? `${short}x${long}` : `${long}x${short}` };
}

/**
 * `POST /v1/videos` → Veo `:predictLongRunning` (fixtures gemini-veo): the prompt, the first reference image as
 * `instances[0].image` (Veo takes one), `size` as the nearest aspect ratio and a resolution (`1080p` when the
 * shorter side is 1080 or more, else `720p`), `seconds` as `durationSeconds`, `negative_prompt` passed on.
 */
export async function toVeoRequest(request: VideoRequest, model: string, media: GatewaySettings['media'], signal: AbortSignal): Promise<Record<string, unknown>> {
  if (request.references.length > 1) {
    throw new GatewayError('GW_INVALID_REQUEST', 'input_reference: Veo takes one reference image (the first frame)', { param: 'input_reference' });
  }
  const instance: Record<string, unknown> = { prompt: request.prompt };
  if (request.references.length === 1) {
    const [image] = await inlineImageInputs(request.references, media, signal, () => 'input_reference');
    instance.image = { bytesBase64Encoded: image.data, mimeType: image.mimeType };
  }
  const parameters: Record<string, unknown> = {};
  if (request.size) {
    const format = veoFormat(request.size, model);
    if (format.aspectRatio) parameters.aspectRatio = format.aspectRatio;
    if (format.resolution) parameters.resolution = format.resolution;
  }
  if (request.seconds) parameters.durationSeconds = Number(request.seconds);
  if (typeof request.fields.negative_prompt === 'string') parameters.negativePrompt = request.fields.negative_prompt;
  return { instances: [instance], ...(Object.keys(parameters).length ? { parameters } : {}) };
}
