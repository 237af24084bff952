import { GatewayError, withExactToolNumbers, type UpstreamRequest } from '@gateway/core';
import type { GeminiSafetySetting } from './options';
import { describeRefusedMediaType, toGeminiMediaType } from './gemini-media-types';

/** Whether the native request is a generation call (countTokens takes neither safety settings nor tools). */
export interface NativeShape {
  generate: boolean;
  safetySettings: GeminiSafetySetting[];
}

/** What the native path changed, so the upstream call can undo a refused default safety category. */
export interface NativeResult {
  request: UpstreamRequest;
  /** True when the gateway added its own safety settings (the client sent none). */
  addedSafety: boolean;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A native Gemini request goes upstream as the client's bytes, with three exceptions:
 * - an inline or file part whose image, audio or video type the platform does not accept is refused (415);
 * - the spec's search tool `{webSearch: {}}` is the API's `googleSearch` (DECISIONS §7): renamed, body re-serialised;
 * - with no `safetySettings` of its own, the request gets the platform's; the key is spliced in after the opening
 *   brace so the rest of the client's bytes stay as they were. A client's own setting always wins.
 */
export function toGeminiNativeRequest(request: UpstreamRequest, shape: NativeShape): NativeResult {
  const json = request.json;
  if (json && !shape.generate) return { request: countRequestWithSearchRenamed(request, json), addedSafety: false };
  if (!json) return { request, addedSafety: false };
  assertNativeMediaTypes(json);
  const tools = renameWebSearchTools(json.tools);
  const addSafety = json.safetySettings === undefined && json.safety_settings === undefined;
  if (!tools && !addSafety) return { request, addedSafety: false };

  // Assigned, not spread: a spread copy gaining keys gets a hidden class of its own each time on Node 20.
  if (!tools && request.body) {
    const spliced = Object.assign({ safetySettings: shape.safetySettings }, json);
    return { request: { ...request, body: spliceFirstKey(request.body, 'safetySettings', shape.safetySettings, Object.keys(json).length === 0), json: spliced }, addedSafety: true };
  }
  // Written again whole from the parsed body: tool values keep their numbers' digits (see withExactToolNumbers).
  const rebuilt: Record<string, unknown> = Object.assign({}, request.body ? withExactToolNumbers(json, request.body) : json);
  if (tools) rebuilt.tools = tools;
  if (addSafety) rebuilt.safetySettings = shape.safetySettings;
  return { request: { ...request, body: undefined, json: rebuilt }, addedSafety: addSafety };
}

/**
 * A `countTokens` request counts a whole generation request (`generateContentRequest`, either spelling) whose tools
 * name the search as a generation does: renamed there too, the rest as sent.
 */
function countRequestWithSearchRenamed(request: UpstreamRequest, json: Json): UpstreamRequest {
  const key = isObject(json.generateContentRequest) ? 'generateContentRequest' : isObject(json.generate_content_request) ? 'generate_content_request' : undefined;
  const inner = key ? (json[key] as Json) : undefined;
  const tools = inner ? renameWebSearchTools(inner.tools) : undefined;
  if (!key || !inner || !tools) return request;
  const exact = request.body ? withExactToolNumbers(json, request.body) : json;
  return { ...request, body: undefined, json: { ...exact, [key]: { ...(exact[key] as Json), tools } } };
}

/** `{webSearch: {...}}` / `{web_search: {...}}` → `{googleSearch: {...}}`; undefined when no tool needs it. */
export function renameWebSearchTools(tools: unknown): unknown[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  let changed = false;
  const renamed = tools.map((tool: unknown) => {
    if (!isObject(tool)) return tool;
    const key = 'webSearch' in tool ? 'webSearch' : 'web_search' in tool ? 'web_search' : undefined;
    if (!key) return tool;
    changed = true;
    const { [key]: search, ...rest } = tool;
    return { ...rest, googleSearch: isObject(search) ? search : {} };
  });
  return changed ? renamed : undefined;
}

/** Inserts `"key":value,` right after the top-level `{` of a JSON object text (the body has been parsed as one). */
function spliceFirstKey(raw: Buffer, key: string, value: unknown, emptyObject: boolean): Buffer {
  const brace = raw.indexOf(0x7b);
  const member = Buffer.from(`${JSON.stringify(key)}:${JSON.stringify(value)}${emptyObject ? '' : ','}`);
  return Buffer.concat([raw.subarray(0, brace + 1), member, raw.subarray(brace + 1)]);
}

/** Image, audio and video parts must be of the formats the platform accepts; other kinds (PDF, text) pass. */
function assertNativeMediaTypes(json: Json): void {
  const contents = Array.isArray(json.contents) ? json.contents : [];
  contents.forEach((content: unknown, i) => {
    const parts = isObject(content) && Array.isArray(content.parts) ? content.parts : [];
    parts.forEach((part: unknown, j) => {
      if (!isObject(part)) return;
      for (const blobKey of ['inlineData', 'inline_data', 'fileData', 'file_data']) {
        const blob = part[blobKey];
        if (!isObject(blob)) continue;
        const typeKey = 'mimeType' in blob ? 'mimeType' : 'mime_type';
        const mediaType = blob[typeKey];
        if (typeof mediaType !== 'string' || !/^(image|audio|video)\//i.test(mediaType.trim())) continue;
        if (toGeminiMediaType(mediaType)) continue;
        const field = `contents[${i}].parts[${j}].${blobKey}.${typeKey}`;
        throw new GatewayError('GW_MEDIA_NOT_ALLOWED', `${field}: ${describeRefusedMediaType(mediaType)}`, { param: field });
      }
    });
  });
}
