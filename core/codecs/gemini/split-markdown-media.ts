import { parseDataUri } from '../shared/parse-data-uri';
import { sniffBase64Type } from '../shared/read-bare-base64';
import type { GeminiPart } from './gemini-types';

/** The markdown a chat answer renders generated media as (DECISIONS §7, encodeChatMediaMarkdown): a data URI. */
const MARKDOWN_MEDIA = /!\[image\]\((data:(?:image|audio|video)\/[^)\s]+)\)/g;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * A model turn's text → its parts, the media a chat or Responses client was given as markdown (a Gemini image model's
 * picture, sent back with the conversation) made inline data again. Sent as text, a picture's base64 became a prompt
 * of hundreds of thousands of characters. Text without such markdown is one part, as it came.
 */
export function splitMarkdownMedia(text: string): GeminiPart[] {
  if (!text.includes('](data:')) return [{ text }];
  const parts: GeminiPart[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKDOWN_MEDIA)) {
    const media = parseDataUri(match[1]);
    // A picture's own bytes, not a model writing about the markdown (`![image](data:image/png;base64,AAAA)` in code).
    if (!media || !BASE64.test(media.data) || sniffBase64Type(media.data) === undefined) continue;
    const before = text.slice(last, match.index);
    if (before !== '') parts.push({ text: before });
    parts.push({ inlineData: { mimeType: media.mediaType, data: media.data } });
    last = match.index + match[0].length;
  }
  const rest = text.slice(last);
  if (rest !== '') parts.push({ text: rest });
  return parts;
}
