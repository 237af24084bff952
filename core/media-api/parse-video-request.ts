import { GatewayError } from '../errors/gateway-error';
import type { CustomRequest, RequestContext } from '../hooks/plugin-api';
import { compileValidator } from '../validation/compile-validator';
import { coerceFormFields } from './coerce-form-fields';
import { fileImageInput, parseImageObject, parseImageReference, type ImageInput } from './image-input';
import { isMultipart } from './parse-image-request';

/** Spec 4.5 / 4.6 and the OpenAI Videos API. `seconds` is a string there (`"8"`); a number is accepted too. */
export const videoRequestSchema = {
  type: 'object',
  required: ['prompt'],
  properties: {
    prompt: { type: 'string', minLength: 1 },
    model: { type: 'string', minLength: 1 },
    size: { type: 'string', pattern: '^[1-9][0-9]{0,4}x[1-9][0-9]{0,4}$' },
    seconds: { anyOf: [{ type: 'string', pattern: '^[1-9][0-9]{0,3}$' }, { type: 'integer', minimum: 1, maximum: 9999 }] },
    input_reference: {
      anyOf: [
        { type: 'string' },
        { type: 'array', items: { type: 'string' } },
        { type: 'object', properties: { image_url: { type: 'string' }, file_id: { type: 'string' } } },
      ],
    },
  },
} as const;

interface VideoRequestBody {
  prompt: string;
  model?: string;
  size?: string;
  seconds?: string | number;
  input_reference?: string | string[] | { image_url?: string; file_id?: string };
  [field: string]: unknown;
}

const validateVideoRequest = compileValidator<VideoRequestBody>(videoRequestSchema);

const REFERENCE_FILE_FIELDS = new Set(['input_reference', 'input_reference[]']);

/** A validated video creation or remix. */
export interface VideoRequest {
  prompt: string;
  model?: string;
  size?: string;
  /** Always a string, as the OpenAI Videos API has it. */
  seconds?: string;
  /** Reference images (first frames), files first. */
  references: ImageInput[];
  /** The client's fields as validated (form values coerced). */
  fields: Record<string, unknown>;
  multipart: boolean;
}

/** Validates `POST /v1/videos` and `/v1/videos/{id}/remix` (JSON or multipart with `input_reference[]` files). */
export function parseVideoRequest(request: CustomRequest, ctx: Pick<RequestContext, 'headers'>): VideoRequest {
  const multipart = isMultipart(ctx.headers['content-type']);
  const body = validateVideoRequest(multipart ? coerceFormFields(request.body, videoRequestSchema) : request.body);
  const references: ImageInput[] = [];
  for (const file of request.files) {
    if (!REFERENCE_FILE_FIELDS.has(file.field)) {
      throw new GatewayError('GW_INVALID_REQUEST', `${file.field}: unexpected file field; send reference images as "input_reference" or "input_reference[]"`, { param: file.field });
    }
    references.push(fileImageInput(file));
  }
  const ref = body.input_reference;
  if (typeof ref === 'string') references.push(parseImageReference(ref, 'input_reference'));
  else if (Array.isArray(ref)) ref.forEach((item, i) => references.push(parseImageReference(item, `input_reference[${i}]`)));
  else if (ref !== undefined) references.push(parseImageObject(ref, 'input_reference'));
  return {
    prompt: body.prompt,
    model: body.model,
    size: body.size,
    seconds: body.seconds === undefined ? undefined : String(body.seconds),
    references,
    fields: body,
    multipart,
  };
}
