import { GatewayError, decodeOpenAiError, encodeImageItem, isBase64Payload, parseDataUri, type EncodeImageOptions, type ImageResult, type ImageResultItem } from '@gateway/core';

const OUTPUT_FORMAT_TYPES: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', jpg: 'image/jpeg', webp: 'image/webp' };

/**
 * OpenAI's ImagesResponse → the gateway's image result: each base64 image becomes what the client asked for (a data
 * URI or plain `b64_json`, or a URL the gateway serves); URLs the upstream gave stay as they are. Other fields
 * (`usage`, `size`, `quality`, `background`, `output_format`) are kept.
 */
export async function fromOpenAiImages(json: unknown, options: EncodeImageOptions): Promise<ImageResult> {
  const body = json as { created?: unknown; data?: unknown; output_format?: unknown; error?: unknown } | null;
  // An error envelope in a 200 (a compatible service's content-policy refusal): that error, its message kept.
  if (body && typeof body === 'object' && typeof body.error === 'object' && body.error !== null) throw decodeOpenAiError(body.error);
  if (!body || typeof body !== 'object' || !Array.isArray(body.data)) {
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream image answer has no data list');
  }
  // A 200 with no image is no answer to an image request (a task would be "completed" with nothing in it).
  if (body.data.length === 0) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream image answer has no image: its data list is empty');
  const mediaType = typeof body.output_format === 'string' ? OUTPUT_FORMAT_TYPES[body.output_format.toLowerCase()] : undefined;
  const data: ImageResultItem[] = [];
  for (const [index, raw] of (body.data as unknown[]).entries()) {
    const item = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as ImageResultItem) : {};
    if (isBase64Image(item.b64_json)) {
      const { b64_json: b64, revised_prompt: revisedPrompt, ...rest } = item;
      const encoded = await encodeImageItem({ data: b64, mediaType, revisedPrompt: typeof revisedPrompt === 'string' ? revisedPrompt : undefined }, options);
      data.push({ ...encoded, ...rest });
    } else if (typeof item.url === 'string') {
      data.push(item);
    } else {
      // Passed on, it would be a 200 without an image (or, with response_format url, garbage served as one).
      throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream answered a malformed image: data[${index}] has neither base64 b64_json nor a url`);
    }
  }
  const created = typeof body.created === 'number' ? body.created : Math.floor(Date.now() / 1000);
  return { ...body, created, data };
}

/** Base64, also as a data URI (encodeImageItem strips one, as some compatible upstreams send it). */
function isBase64Image(value: unknown): value is string {
  return typeof value === 'string' && isBase64Payload(parseDataUri(value)?.data ?? value);
}
