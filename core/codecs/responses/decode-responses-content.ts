import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedMediaPart, UnifiedTextPart } from '../../unified/unified-request';
import { DATA_URI_SHAPE, decodeMediaReference } from '../shared/decode-media-reference';
import { fileMimeFromName } from '../shared/file-mime-from-name';
import { mediaKindFromMime } from '../shared/media-kind-from-mime';
import { isDataUri, parseDataUri } from '../shared/parse-data-uri';
import type { ResponsesContentPart } from './responses-types';

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${detail}`, { param });
}

function decodeImage(part: { image_url?: string | null; file_id?: string | null; detail?: string }, path: string): UnifiedMediaPart {
  if (!part.image_url) {
    if (part.file_id) throw invalid(`${path}.file_id`, 'uploaded file ids are not supported; send image_url (a URL or a data URI)');
    throw invalid(`${path}.image_url`, 'is required');
  }
  const source = decodeMediaReference(part.image_url, `${path}.image_url`);
  const out: UnifiedMediaPart = { type: source.kind === 'base64' ? mediaKindFromMime(source.mediaType) : 'image', source };
  if (part.detail !== undefined) out.detail = part.detail;
  return out;
}

function decodeFile(part: { file_data?: string; file_url?: string; file_id?: string | null; filename?: string }, path: string): UnifiedMediaPart {
  let out: UnifiedMediaPart;
  if (part.file_data) {
    const inline = parseDataUri(part.file_data);
    if (!inline && isDataUri(part.file_data)) throw invalid(`${path}.file_data`, DATA_URI_SHAPE);
    if (inline) {
      out = { type: mediaKindFromMime(inline.mediaType), source: { kind: 'base64', mediaType: inline.mediaType, data: inline.data } };
    } else {
      out = { type: 'file', source: { kind: 'base64', mediaType: fileMimeFromName(part.filename), data: part.file_data } };
    }
  } else if (part.file_url) {
    out = { type: 'file', source: { kind: 'url', url: part.file_url } };
  } else if (part.file_id) {
    throw invalid(`${path}.file_id`, 'uploaded file ids are not supported; send file_data or file_url');
  } else {
    throw invalid(`${path}.file_data`, 'is required');
  }
  if (part.filename !== undefined) out.filename = part.filename;
  return out;
}

function decodePart(part: ResponsesContentPart, path: string): UnifiedTextPart | UnifiedMediaPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    case 'input_image':
      return { ...decodeImage(part, path), clientPath: path };
    case 'input_file':
      return { ...decodeFile(part, path), clientPath: path };
    case 'input_audio': {
      const mediaType = `audio/${part.input_audio.format.toLowerCase()}`;
      return { type: 'audio', source: { kind: 'base64', mediaType, data: part.input_audio.data }, clientPath: path };
    }
  }
}

/**
 * Message or tool-output content (a string or parts) → unified text and media parts. `partsPath` names the array the
 * parts sit in: `input[2].content` for a message, `input[3].output` for a function call's output.
 */
export function decodeResponsesContent(content: string | ResponsesContentPart[], partsPath: string): Array<UnifiedTextPart | UnifiedMediaPart> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part, j) => decodePart(part, `${partsPath}[${j}]`));
}
