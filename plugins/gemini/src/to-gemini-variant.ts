import type { UnifiedRequest } from '@gateway/core';
import { nearestAspectRatio } from './nearest-aspect-ratio';

const THINKING_SUFFIX = '-thinking';

/** Image-generation models (`gemini-2.5-flash-image`, `gemini-3-pro-image-preview`) answer with images when asked. */
export function isGeminiImageModel(model: string): boolean {
  return /image/i.test(model);
}

/** The aspect ratio a client asked for: the unified field, else an OpenAI-style `size` or `aspect_ratio` it sent. */
function requestedAspectRatio(request: UnifiedRequest): string | undefined {
  if (request.imageAspectRatio !== undefined) return request.imageAspectRatio;
  for (const fields of Object.values(request.extensions ?? {})) {
    for (const name of ['aspect_ratio', 'size']) {
      const value = fields?.[name];
      const ratio = typeof value === 'string' ? nearestAspectRatio(value) : undefined;
      if (ratio) return ratio;
    }
  }
  return undefined;
}

/**
 * Model-name variants of the platform (spec 4.1), applied to a translated request:
 * - a `-thinking` suffix is stripped and asks for thought summaries (`includeThoughts`), unless the client's own
 *   reasoning settings say otherwise (its `includeThoughts`, or thinking switched off);
 * - an image model answers TEXT+IMAGE unless the client chose modalities, with the aspect ratio it asked for
 *   (an OpenAI `size` maps to the nearest supported ratio).
 */
export function toGeminiVariant(request: UnifiedRequest): UnifiedRequest {
  let out = request;
  if (out.model.endsWith(THINKING_SUFFIX) && out.model.length > THINKING_SUFFIX.length) {
    const reasoning = out.reasoning ?? {};
    const includeThoughts = reasoning.includeThoughts ?? (reasoning.enabled === false ? undefined : true);
    out = {
      ...out,
      model: out.model.slice(0, -THINKING_SUFFIX.length),
      reasoning: includeThoughts === undefined ? reasoning : { ...reasoning, includeThoughts },
    };
  }
  if (isGeminiImageModel(out.model)) {
    const aspectRatio = requestedAspectRatio(out);
    out = {
      ...out,
      outputModalities: out.outputModalities && out.outputModalities.length > 0 ? out.outputModalities : ['text', 'image'],
      ...(aspectRatio ? { imageAspectRatio: aspectRatio } : {}),
    };
  }
  return out;
}
