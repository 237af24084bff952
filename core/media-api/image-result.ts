import type { ImageResponseFormat } from './parse-image-request';
import { sniffMediaType } from '../media/sniff-media-type';

/** Spec 2.4: `created` plus one `data` entry per image; platforms may add fields (`usage`, `size`, …). */
export interface ImageResult {
  created: number;
  data: ImageResultItem[];
  [field: string]: unknown;
}

export interface ImageResultItem {
  b64_json?: string;
  url?: string;
  revised_prompt?: string;
  [field: string]: unknown;
}

/**
 * How `b64_json` is written: `data-uri` (`data:image/png;base64,…`, spec 2.4) or `plain` base64 (the OpenAI API's
 * own form, which clients that decode it directly expect).
 */
export type ImageBase64Style = 'data-uri' | 'plain';

/** One generated image as a platform produced it. */
export interface GeneratedImage {
  /** Base64 text or raw bytes. */
  data: string | Buffer;
  /** Read from the bytes when not given. */
  mediaType?: string;
  revisedPrompt?: string;
}

export interface EncodeImageOptions {
  responseFormat: ImageResponseFormat;
  base64Style: ImageBase64Style;
  /** Stores the bytes where the gateway serves them and answers their URL (see createFileLinks). */
  publish(file: { data: Buffer; mediaType: string }): Promise<string>;
}

/** A generated image as the client asked for it: a `b64_json` (data URI or plain) or a `url` the gateway serves. */
export async function encodeImageItem(image: GeneratedImage, options: EncodeImageOptions): Promise<ImageResultItem> {
  const base64 = typeof image.data === 'string' ? stripDataUri(image.data) : image.data.toString('base64');
  const mediaType = image.mediaType ?? sniffMediaType(Buffer.from(base64.slice(0, 64), 'base64')) ?? 'image/png';
  const item: ImageResultItem = {};
  if (options.responseFormat === 'url') {
    const bytes = typeof image.data === 'string' ? Buffer.from(base64, 'base64') : image.data;
    item.url = await options.publish({ data: bytes, mediaType });
  } else {
    item.b64_json = options.base64Style === 'data-uri' ? `data:${mediaType};base64,${base64}` : base64;
  }
  if (image.revisedPrompt !== undefined) item.revised_prompt = image.revisedPrompt;
  return item;
}

/** Base64 payload of a data URI, or the text itself. */
function stripDataUri(text: string): string {
  if (!text.startsWith('data:')) return text;
  const comma = text.indexOf(',');
  return comma < 0 ? text : text.slice(comma + 1);
}
