/** The aspect ratios Gemini image models take (`imageConfig.aspectRatio`). @see https://ai.google.dev/gemini-api/docs/image-generation */
export const GEMINI_ASPECT_RATIOS: readonly string[] = Object.freeze(['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9']);

/**
 * An OpenAI image `size` (`1536x1024`) or a ratio (`16:9`, `1.91:1`) → the nearest supported aspect ratio, compared
 * on a log scale so that 2:1 is as far from 1:1 as 1:2 (`ratios`: another model family's list, e.g. Imagen's or
 * Veo's). Undefined for `auto` and anything unreadable.
 */
export function nearestAspectRatio(text: string, ratios: readonly string[] = GEMINI_ASPECT_RATIOS): string | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*[x×:]\s*(\d+(?:\.\d+)?)\s*$/i.exec(text);
  if (!match) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (!(width > 0 && height > 0)) return undefined;
  const target = Math.log(width / height);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const ratio of ratios) {
    const [w, h] = ratio.split(':').map(Number);
    const distance = Math.abs(Math.log(w / h) - target);
    if (distance < bestDistance) {
      best = ratio;
      bestDistance = distance;
    }
  }
  return best;
}
