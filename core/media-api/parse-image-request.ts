import { GatewayError } from '../errors/gateway-error';
import type { CustomRequest, RequestContext } from '../hooks/plugin-api';
import { compileValidator } from '../validation/compile-validator';
import { coerceFormFields, isAsyncRequested } from './coerce-form-fields';
import { fileImageInput, parseImageObject, parseImageReference, type ImageInput } from './image-input';

export const IMAGE_RESPONSE_FORMATS = ['b64_json', 'url'] as const;
export const IMAGE_BACKGROUNDS = ['transparent', 'opaque', 'auto'] as const;
/** The spec's four, plus the DALL·E values OpenAI accepts (`standard`, `hd`). */
export const IMAGE_QUALITIES = ['low', 'medium', 'high', 'auto', 'standard', 'hd'] as const;

export type ImageResponseFormat = (typeof IMAGE_RESPONSE_FORMATS)[number];
export type ImageBackground = (typeof IMAGE_BACKGROUNDS)[number];
export type ImageQuality = (typeof IMAGE_QUALITIES)[number];

/** `<width>x<height>`, or `auto` (GPT image models). */
const SIZE_PATTERN = '^(auto|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$';

const IMAGE_OBJECT = { type: 'object', properties: { image_url: { type: 'string' }, file_id: { type: 'string' } } };

/** Spec 4.2 / 4.3. Unknown fields (`output_format`, `style`, `user`…) are kept for platforms that forward them. */
export const imageRequestSchema = {
  type: 'object',
  required: ['prompt'],
  properties: {
    prompt: { type: 'string', minLength: 1 },
    model: { type: 'string', minLength: 1 },
    n: { type: 'integer', minimum: 1, maximum: 10 },
    response_format: { enum: [...IMAGE_RESPONSE_FORMATS] },
    size: { type: 'string', pattern: SIZE_PATTERN },
    background: { enum: [...IMAGE_BACKGROUNDS] },
    quality: { enum: [...IMAGE_QUALITIES] },
    async: { type: 'boolean' },
    stream: { type: 'boolean' },
    partial_images: { type: 'integer', minimum: 0, maximum: 3 },
    output_compression: { type: 'integer', minimum: 0, maximum: 100 },
    image: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    images: { type: 'array', items: IMAGE_OBJECT },
    mask: { anyOf: [{ type: 'string' }, IMAGE_OBJECT] },
  },
} as const;

interface ImageRequestBody {
  prompt: string;
  model?: string;
  n?: number;
  response_format?: ImageResponseFormat;
  size?: string;
  background?: ImageBackground;
  quality?: ImageQuality;
  async?: boolean;
  stream?: boolean;
  image?: string | string[];
  images?: Array<{ image_url?: string; file_id?: string }>;
  mask?: string | { image_url?: string; file_id?: string };
  [field: string]: unknown;
}

const validateImageRequest = compileValidator<ImageRequestBody>(imageRequestSchema);

/** Input images an edit takes at most, as OpenAI's GPT image models do (a form also carries up to 17 files). */
const MAX_EDIT_IMAGES = 16;

/** File fields an edit takes; `image` is one file, `image[]` repeats (the official SDKs use both). */
const EDIT_FILE_FIELDS = new Set(['image', 'image[]', 'mask']);

/** A validated image generation or edit, with the spec's defaults applied. */
export interface ImageRequest {
  kind: 'generation' | 'edit';
  prompt: string;
  model?: string;
  n?: number;
  responseFormat: ImageResponseFormat;
  size?: string;
  background: ImageBackground;
  quality: ImageQuality;
  /** `async` in the body, or `?async=true`. */
  async: boolean;
  stream: boolean;
  /** Edit inputs in the order files, `image`, `images`. */
  images: ImageInput[];
  /** Each input's field as the client named it (`image[1]`, `images[0]`), for the errors that refuse one. */
  imageFields: string[];
  mask?: ImageInput;
  /** The client's fields as validated (form values coerced), without the gateway's own `async`. */
  fields: Record<string, unknown>;
  /** The client sent multipart/form-data. */
  multipart: boolean;
}

/**
 * Validates `POST /v1/images/generations` and `/v1/images/edits` (JSON or multipart). Enum violations, a bad size and
 * an unexpected file field answer 400 naming the field.
 */
export function parseImageRequest(request: CustomRequest, ctx: Pick<RequestContext, 'headers' | 'query'>, kind: ImageRequest['kind']): ImageRequest {
  const multipart = isMultipart(ctx.headers['content-type']);
  const body = validateImageRequest(multipart ? coerceFormFields(request.body, imageRequestSchema) : request.body);
  for (const file of request.files) {
    if (kind === 'generation') {
      throw new GatewayError('GW_INVALID_REQUEST', `${file.field}: an image generation takes no files (send it to /v1/images/edits)`, { param: file.field });
    }
    if (!EDIT_FILE_FIELDS.has(file.field)) {
      throw new GatewayError('GW_INVALID_REQUEST', `${file.field}: unexpected file field; send images as "image" or "image[]" and a mask as "mask"`, { param: file.field });
    }
  }
  const images: ImageInput[] = [];
  const imageFields: string[] = [];
  let mask: ImageInput | undefined;
  if (kind === 'edit') {
    const masks: ImageInput[] = [];
    for (const file of request.files) {
      if (file.field === 'mask') masks.push(fileImageInput(file));
      else {
        images.push(fileImageInput(file));
        imageFields.push(file.field === 'image[]' ? `image[${imageFields.length}]` : file.field);
      }
    }
    const refs = body.image === undefined ? [] : Array.isArray(body.image) ? body.image : [body.image];
    const add = (input: ImageInput, field: string): void => {
      images.push(input);
      imageFields.push(field);
    };
    refs.forEach((ref, i) => {
      const field = Array.isArray(body.image) ? `image[${i}]` : 'image';
      add(parseImageReference(ref, field), field);
    });
    (body.images ?? []).forEach((item, i) => add(parseImageObject(item, `images[${i}]`), `images[${i}].${typeof item.image_url === 'string' ? 'image_url' : 'file_id'}`));
    if (body.mask !== undefined) masks.push(typeof body.mask === 'string' ? parseImageReference(body.mask, 'mask') : parseImageObject(body.mask, 'mask'));
    // One mask applies to the first image: a second one would be dropped without a word.
    if (masks.length > 1) throw new GatewayError('GW_INVALID_REQUEST', `mask: an image edit takes one mask; this one has ${masks.length}`, { param: 'mask' });
    mask = masks[0];
    if (images.length > MAX_EDIT_IMAGES) {
      throw new GatewayError('GW_INVALID_REQUEST', `image: an image edit takes at most ${MAX_EDIT_IMAGES} images; this one has ${images.length}`, { param: 'image' });
    }
    if (images.length === 0) {
      throw new GatewayError('GW_INVALID_REQUEST', 'image: an image edit needs at least one image (image, image[] or images)', { param: 'image' });
    }
  }
  const { async: _async, ...fields } = body;
  return {
    kind,
    prompt: body.prompt,
    model: body.model,
    n: body.n,
    responseFormat: body.response_format ?? 'b64_json',
    size: body.size,
    background: body.background ?? 'auto',
    quality: body.quality ?? 'auto',
    async: isAsyncRequested(body.async, ctx.query),
    stream: body.stream === true,
    images,
    imageFields,
    mask,
    fields,
    multipart,
  };
}

export function isMultipart(contentType: string | undefined): boolean {
  return /^multipart\/form-data/i.test(contentType ?? '');
}
