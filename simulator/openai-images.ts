import { parseDirectives } from './directives';
import { headerValue, isRecord, sendJson, sleep } from './http-util';
import { readForm, type FormFile } from './multipart';
import { missingParameter, sendOpenAiError, statusError, type OpenAiError } from './openai-errors';
import { SIM_CREATED } from './scenario';
import type { Exchange } from './types';

/** OpenAI `POST /v1/images/generations` and `/v1/images/edits` (JSON or multipart), and the files of `url` answers. */

/** A valid 1×1 RGBA PNG, the image of every answer (the fixtures use the same one). */
export const SIM_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==', 'base64');

const FILE_PATH = /^\/v1\/images\/files\/img-(\d+)-(\d+)\.png$/;

function unknownParameter(name: string): OpenAiError {
  return { status: 400, message: `Unknown parameter: '${name}'.`, type: 'invalid_request_error', param: name, code: 'unknown_parameter' };
}

function invalidValue(param: string, message: string): OpenAiError {
  return { status: 400, message, type: 'invalid_request_error', param, code: 'invalid_value' };
}

/** What both body forms carry, as the simulator reads it. */
interface ImageCall {
  fields: Record<string, unknown>;
  files: FormFile[];
}

async function readCall(exchange: Exchange): Promise<ImageCall | undefined> {
  const form = await readForm(exchange);
  if (form) return { fields: form.fields, files: form.files };
  return isRecord(exchange.body) ? { fields: exchange.body, files: [] } : undefined;
}

export async function createImages(exchange: Exchange, edit: boolean): Promise<void> {
  const call = await readCall(exchange);
  if (!call) return sendOpenAiError(exchange, { status: 400, message: 'We could not parse the body of your request.', type: 'invalid_request_error', param: null, code: null });
  const { fields, files } = call;
  if (typeof fields.prompt !== 'string' || fields.prompt === '') return sendOpenAiError(exchange, missingParameter('prompt'));
  const model = typeof fields.model === 'string' ? fields.model : 'dall-e-2';
  const dallE = model.startsWith('dall-e');
  if (!dallE && fields.response_format !== undefined) return sendOpenAiError(exchange, unknownParameter('response_format'));
  const format = fields.response_format ?? 'url';
  if (format !== 'url' && format !== 'b64_json') return sendOpenAiError(exchange, invalidValue('response_format', `Invalid value: '${String(format)}'. Supported values are: 'url' and 'b64_json'.`));
  if (edit) {
    const images = files.filter((file) => file.field === 'image' || file.field === 'image[]');
    const refs = Array.isArray(fields.images) ? fields.images : [];
    if (images.length === 0 && refs.length === 0) return sendOpenAiError(exchange, missingParameter('image'));
  }
  const { directives } = parseDirectives(fields.prompt);
  if (directives.error !== undefined) return sendOpenAiError(exchange, statusError(directives.error, model));
  if (directives.hang) return;
  if (directives.delayMs) await sleep(directives.delayMs, exchange.signal);
  if (exchange.signal.aborted) return;

  const n = Math.max(1, Math.min(10, Number(fields.n ?? 1) || 1));
  const id = exchange.nextId();
  const host = headerValue(exchange.req.headers.host) ?? '127.0.0.1';
  const data = Array.from({ length: n }, (_, i) =>
    dallE && format === 'url'
      ? { revised_prompt: `A simulated image of: ${fields.prompt}`, url: `http://${host}/openai/v1/images/files/img-${id}-${i}.png` }
      : dallE
        ? { revised_prompt: `A simulated image of: ${fields.prompt}`, b64_json: SIM_PNG.toString('base64') }
        : { b64_json: SIM_PNG.toString('base64') },
  );
  if (dallE) return sendJson(exchange.res, 200, { created: SIM_CREATED, data });
  const size = typeof fields.size === 'string' ? fields.size : '1024x1024';
  const inputImageTokens = files.length * 65;
  return sendJson(exchange.res, 200, {
    created: SIM_CREATED,
    background: typeof fields.background === 'string' ? fields.background : 'opaque',
    data,
    output_format: typeof fields.output_format === 'string' ? fields.output_format : 'png',
    quality: typeof fields.quality === 'string' ? fields.quality : 'high',
    size,
    usage: {
      input_tokens: 12 + inputImageTokens,
      input_tokens_details: { image_tokens: inputImageTokens, text_tokens: 12 },
      output_tokens: 272 * n,
      output_tokens_details: { image_tokens: 272 * n, text_tokens: 0 },
      total_tokens: 12 + inputImageTokens + 272 * n,
    },
  });
}

/** `url` answers point here; every file is the same PNG. */
export function serveImageFile(exchange: Exchange): boolean {
  if (exchange.method !== 'GET' || !FILE_PATH.test(exchange.path)) return false;
  exchange.res.writeHead(200, { 'content-type': 'image/png', 'content-length': SIM_PNG.length });
  exchange.res.end(SIM_PNG);
  return true;
}
