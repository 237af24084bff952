import { sniffBase64Type } from './read-bare-base64';

/**
 * An image's type as its bytes tell it, where they contradict the type declared (a PNG label on JPEG bytes, which
 * OpenAI reads and Anthropic refuses: "Image does not match the provided media type"); else the declared one.
 */
export function imageTypeOf(declared: string, data: string): string {
  if (!declared.startsWith('image/')) return declared;
  const sniffed = sniffBase64Type(data);
  return sniffed?.startsWith('image/') && sniffed !== declared ? sniffed : declared;
}
