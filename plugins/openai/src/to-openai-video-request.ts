import { GatewayError, imageInputUrl, type VideoRequest } from '@gateway/core';
import type { ShapedPost } from './call-openai';
import { textParts } from './to-openai-image-request';

/**
 * A video creation for the OpenAI Videos API: a reference file goes on as multipart (`input_reference`), a URL or
 * base64 reference as the JSON form `{"input_reference": {"image_url": …}}`. `seconds` is sent as a string.
 */
export function toOpenAiVideoRequest(request: VideoRequest, platform: string): ShapedPost {
  const path = '/v1/videos';
  const { input_reference: _reference, ...fields } = request.fields;
  if (request.seconds !== undefined) fields.seconds = request.seconds;
  if (request.references.length > 1) {
    throw new GatewayError('GW_INVALID_REQUEST', `input_reference: platform "${platform}" takes one reference image, got ${request.references.length}`, { param: 'input_reference' });
  }
  const [reference] = request.references;
  if (reference?.kind === 'file') {
    return { path, multipart: [...textParts(fields), { name: 'input_reference', filename: reference.filename, mediaType: reference.mediaType, data: reference.data }] };
  }
  if (reference?.kind === 'file_id') return { path, json: { ...fields, input_reference: { file_id: reference.fileId } } };
  if (reference) return { path, json: { ...fields, input_reference: { image_url: imageInputUrl(reference) } } };
  return { path, json: fields };
}

/** A remix takes only the new prompt (and any other field the client sent); reference images are refused. */
export function toOpenAiRemixRequest(request: VideoRequest, videoId: string, platform: string): ShapedPost {
  if (request.references.length > 0) {
    throw new GatewayError('GW_INVALID_REQUEST', `input_reference: a remix on platform "${platform}" takes only a prompt`, { param: 'input_reference' });
  }
  const { input_reference: _reference, ...fields } = request.fields;
  return { path: `/v1/videos/${encodeURIComponent(videoId)}/remix`, json: fields };
}
