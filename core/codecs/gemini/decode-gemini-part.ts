import type { UnifiedOutputPart } from '../../unified/unified-response';
import { mediaKindFromMime } from '../shared/media-kind-from-mime';
import type { GeminiPart } from './gemini-types';
import { guessMimeType } from './guess-mime-type';
import { isYouTubeUrl } from './is-youtube-url';
import { renderCodeExecutionPart } from './render-code-execution-part';

/**
 * One content part (not functionResponse) → unified parts; undefined when it has no field this
 * codec knows. `thought: true` text is reasoning; a `thought: true` image (an image model's draft) is left out. A `thoughtSignature` on a functionCall stays on the
 * tool call; on any other part it becomes a signature-only reasoning part placed just before it, so the
 * Gemini encoder can put it back on that part. Calls without an id are named by `nextId`.
 */
export function decodeGeminiPart(part: GeminiPart, nextId: () => string): UnifiedOutputPart[] | undefined {
  const signature = part.thoughtSignature;
  const signed: UnifiedOutputPart[] = signature ? [{ type: 'reasoning', text: '', signature, provider: 'gemini' }] : [];
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    return [{ type: 'tool_call', id: id ?? nextId(), name, arguments: JSON.stringify(args ?? {}), ...(signature ? { signature } : {}) }];
  }
  if (part.inlineData) {
    // A draft an image model made while thinking (Gemini 3 Pro Image): not the answer's image, which follows it.
    if (part.thought) return signed;
    const { mimeType, data } = part.inlineData;
    return [...signed, { type: mediaKindFromMime(mimeType), source: { kind: 'base64', mediaType: mimeType, data } }];
  }
  if (part.fileData) {
    const { fileUri, mimeType } = part.fileData;
    const kind = mimeType ? mediaKindFromMime(mimeType) : isYouTubeUrl(fileUri) ? 'video' : mediaKindFromMime(guessMimeType(fileUri, 'file'));
    return [...signed, { type: kind, source: { kind: 'url', url: fileUri } }];
  }
  const code = renderCodeExecutionPart(part);
  if (code !== undefined) return [...signed, { type: 'text', text: code }];
  if (part.text !== undefined || part.thought !== undefined || signature !== undefined) {
    const text = part.text ?? '';
    if (part.thought) return [{ type: 'reasoning', text, provider: 'gemini', ...(signature ? { signature } : {}) }];
    return text === '' ? signed : [...signed, { type: 'text', text }];
  }
  return undefined;
}
