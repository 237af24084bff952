import { GatewayError, imageInputUrl, type ImageInput, type ImageRequest, type MultipartPart } from '@gateway/core';
import type { ShapedPost } from './call-openai';

/** Fields only the GPT image models take; with one of them and no model, OpenAI picks a GPT image model. */
const GPT_IMAGE_FIELDS = ['background', 'output_format', 'output_compression', 'moderation', 'input_fidelity', 'partial_images'];

/** Fields the gateway re-encodes itself on edits. */
const EDIT_INPUT_FIELDS = new Set(['image', 'images', 'mask']);

/**
 * An image request for OpenAI's native images API, keeping every field the client sent. GPT image models refuse
 * `response_format` and always answer base64 (the gateway turns it into URLs itself), so it is dropped for them; any
 * other model (DALL·E, a compatible service's own, which answers URLs unless told) gets the client's value or the
 * gateway's default `b64_json`.
 * Edits: files go on as multipart, and so do base64 images for models other than the GPT image ones; URLs, file ids
 * and a GPT image model's base64 as the JSON `images` form.
 */
export function toOpenAiImageRequest(request: ImageRequest): ShapedPost {
  const fields: Record<string, unknown> = { ...request.fields };
  const gptImage = !takesResponseFormat(request.model, fields);
  if (!gptImage) fields.response_format = request.responseFormat;
  else delete fields.response_format;
  if (request.kind === 'generation') return { path: '/v1/images/generations', json: fields };

  const path = '/v1/images/edits';
  for (const name of EDIT_INPUT_FIELDS) delete fields[name];
  const inputs = request.mask ? [...request.images, request.mask] : request.images;
  // Files go as the multipart form every model and compatible service takes, and so do base64 images for any model but
  // the GPT image ones: the JSON form works for those only (DALL·E 2 and multipart-only services refuse it).
  if (inputs.every((input) => input.kind === 'file' || (input.kind === 'base64' && !gptImage))) {
    const parts = textParts(fields);
    const imageField = request.images.length > 1 ? 'image[]' : 'image';
    for (const input of request.images) parts.push(filePart(input, imageField));
    if (request.mask) parts.push(filePart(request.mask, 'mask'));
    return { path, multipart: parts };
  }
  fields.images = request.images.map((input, i) => toImageObject(input, `images[${i}]`));
  if (request.mask) fields.mask = toImageObject(request.mask, 'mask');
  return { path, json: fields };
}

/** An inline image as a file part: a client's file under its own field, base64 under `field` as the SDKs name it. */
function filePart(input: ImageInput, field: string): MultipartPart {
  if (input.kind === 'file') return { name: input.field, filename: input.filename, mediaType: input.mediaType, data: input.data };
  if (input.kind !== 'base64') throw new GatewayError('GW_INTERNAL', `${field}: not an inline image`);
  const extension = /^image\/([a-z0-9.+-]+)$/i.exec(input.mediaType)?.[1] ?? 'png';
  return { name: field, filename: `${field.replace('[]', '')}.${extension}`, mediaType: input.mediaType, data: Buffer.from(input.data, 'base64') };
}

function takesResponseFormat(model: string | undefined, fields: Record<string, unknown>): boolean {
  if (model !== undefined) return !/^(?:chatgpt-image|gpt-image)/i.test(model);
  return !GPT_IMAGE_FIELDS.some((name) => fields[name] !== undefined);
}

function toImageObject(input: ImageInput, field: string): Record<string, string> {
  if (input.kind === 'file_id') return { file_id: input.fileId };
  const url = imageInputUrl(input);
  if (url === undefined) throw new GatewayError('GW_INVALID_REQUEST', `${field}: cannot be sent to this platform`, { param: field });
  return { image_url: url };
}

/** Form fields as the SDKs encode them: arrays as repeated `name[]`, objects as `name[key]`. */
export function textParts(fields: Record<string, unknown>): MultipartPart[] {
  const parts: MultipartPart[] = [];
  for (const [name, value] of Object.entries(fields)) addField(parts, name, value);
  return parts;
}

function addField(parts: MultipartPart[], name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) addField(parts, `${name}[]`, item);
  } else if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) addField(parts, `${name}[${key}]`, item);
  } else {
    parts.push({ name, value: String(value) });
  }
}
