import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedMediaPart, UnifiedTextPart } from '../../unified/unified-request';
import { DATA_URI_SHAPE, decodeMediaReference } from '../shared/decode-media-reference';
import { fileMimeFromName } from '../shared/file-mime-from-name';
import { mediaKindFromMime } from '../shared/media-kind-from-mime';
import { isDataUri, parseDataUri } from '../shared/parse-data-uri';
import type { ChatCompletionsContentPart, ChatCompletionsMessage } from './chat-completions-types';
import { guessMediaKindFromUrl } from './guess-media-kind-from-url';

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${detail}`, { param });
}

function decodeMediaUrl(url: string, detail: string | undefined, path: string): UnifiedMediaPart {
  const source = decodeMediaReference(url, `${path}.image_url.url`);
  const part: UnifiedMediaPart = { type: source.kind === 'base64' ? mediaKindFromMime(source.mediaType) : guessMediaKindFromUrl(url), source };
  if (detail !== undefined) part.detail = detail;
  return part;
}

function decodeFilePart(file: { file_data?: string; file_id?: string; filename?: string }, path: string): UnifiedMediaPart {
  if (file.file_data === undefined || file.file_data === '') {
    if (file.file_id !== undefined) throw invalid(`${path}.file.file_id`, 'uploaded file ids are not supported; send the file inline as file_data');
    throw invalid(`${path}.file.file_data`, 'is required');
  }
  const data = file.file_data;
  let part: UnifiedMediaPart;
  if (/^https?:\/\//i.test(data)) {
    part = { type: 'file', source: { kind: 'url', url: data } };
  } else {
    const inline = parseDataUri(data);
    if (!inline && isDataUri(data)) throw invalid(`${path}.file.file_data`, DATA_URI_SHAPE);
    if (inline) {
      part = { type: mediaKindFromMime(inline.mediaType), source: { kind: 'base64', mediaType: inline.mediaType, data: inline.data } };
    } else {
      // Bare base64: the file name's extension is the only hint of its type.
      part = { type: 'file', source: { kind: 'base64', mediaType: fileMimeFromName(file.filename), data } };
    }
  }
  if (file.filename !== undefined) part.filename = file.filename;
  return part;
}

function isCacheControl(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { type?: unknown }).type === 'string';
}

function decodeContentPart(part: ChatCompletionsContentPart, path: string): UnifiedTextPart | UnifiedMediaPart {
  switch (part.type) {
    case 'text':
      // A caching breakpoint (OpenRouter's convention, which Cline and others send for Claude models) goes to Claude.
      return isCacheControl(part.cache_control) ? { type: 'text', text: part.text, cacheControl: part.cache_control } : { type: 'text', text: part.text };
    case 'image_url':
      return { ...decodeMediaUrl(part.image_url.url, part.image_url.detail, path), clientPath: path };
    case 'input_audio': {
      const format = part.input_audio.format.toLowerCase();
      return { type: 'audio', source: { kind: 'base64', mediaType: `audio/${format}`, data: part.input_audio.data }, clientPath: path };
    }
    case 'file':
      return { ...decodeFilePart(part.file, path), clientPath: path };
    case 'refusal':
      throw invalid(`${path}.type`, '"refusal" parts are only allowed in assistant messages');
  }
}

/** Message content (a string or parts) → unified text and media parts; `path` names the message for errors. */
export function decodeChatCompletionsContent(content: ChatCompletionsMessage['content'], path: string): Array<UnifiedTextPart | UnifiedMediaPart> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!content) return [];
  return content.map((part, j) => decodeContentPart(part, `${path}.content[${j}]`));
}
