import { TextDecoder } from 'node:util';
import express, { type Request, type Response } from 'express';
import multer from 'multer';
import { GatewayError, isGatewayError } from '../errors/gateway-error';
import type { UploadedFile } from '../hooks/plugin-api';
import { parseJsonBytes } from '../text/parse-json-bytes';
import { MAX_JSON_DEPTH, scanJsonBytes } from '../validation/scan-json-bytes';

/**
 * Deeper bodies are refused here, for every endpoint and mode alike (see MAX_JSON_DEPTH). The margin also covers
 * recursion that takes several frames per level or starts deep in the stack. serde_json's default limit is the same.
 */
const MAX_BODY_DEPTH = MAX_JSON_DEPTH;

export interface BodyReaders {
  /** Raw bytes of a JSON endpoint, parsed once; the bytes are kept for passthrough. */
  json(req: Request, res: Response): Promise<{ raw: Buffer; json: Record<string, unknown> }>;
  /** JSON or multipart/form-data (fields + files). */
  form(req: Request, res: Response): Promise<{ body: Record<string, unknown>; files: UploadedFile[]; raw?: Buffer }>;
}

/** Files one form may carry: an image edit takes up to 16 images and a mask. */
export const MAX_FORM_FILES = 17;

/** Built once at start-up: body-parser and multer instances with the configured limits. */
export function createBodyReaders(limits: { jsonBodyBytes: number; fileBytes: number }): BodyReaders {
  const raw = express.raw({ type: () => true, limit: limits.jsonBodyBytes });
  const multipart = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: limits.fileBytes, fieldSize: limits.jsonBodyBytes, files: MAX_FORM_FILES, fields: MAX_FORM_FIELDS, parts: 200 },
    // Filenames as the SDKs and browsers send them, UTF-8 bytes (busboy would read them as latin1: `cafÃ©.png`).
    defParamCharset: 'utf8',
  }).any();
  // multer holds every file in memory and has no limit on their sum: a form may be as large as the larger of the two
  // limits (one file of the largest size always fits), like a JSON body carrying its images inline.
  const formBytes = Math.max(limits.jsonBodyBytes, limits.fileBytes);

  const json: BodyReaders['json'] = async (req, res) => {
    const type = req.headers['content-type'];
    if (type !== undefined && !/^application\/([\w.+-]+\+)?json\b/i.test(type) && !/^text\/plain\b/i.test(type)) {
      throw new GatewayError('GW_UNSUPPORTED_CONTENT_TYPE', `content-type ${type.split(';')[0]} is not accepted here; send application/json`);
    }
    // A declared length over the limit is refused before a byte is read: body-parser would read (and drop) the whole
    // upload first, however slowly it comes. The rest is then dropped for a bounded time (discardUnreadUpload).
    const length = req.headers['content-length'];
    if (Number(length) > limits.jsonBodyBytes) {
      throw new GatewayError('GW_BODY_TOO_LARGE', `request body is larger than the limit of ${limits.jsonBodyBytes} bytes`);
    }
    // A chunked body is counted as it comes (body-parser would read all of it before its 413); a declared one is not.
    if (length === undefined) await runBounded(raw, req, res, { maxBytes: limits.jsonBodyBytes, what: 'request body' });
    else await run(raw, req, res);
    const received = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const bytes = toUtf8(received, type);
    // Carried on as UTF-8: a passthrough forwards the content type, which must say so.
    if (bytes !== received && type !== undefined) req.headers['content-type'] = type.replace(CHARSET_PARAM, '; charset=utf-8');
    // Handed over: `req` lives as long as the exchange, and would keep bytes a translation never needs again.
    req.body = undefined;
    return { raw: bytes, json: parseJsonObject(bytes) };
  };

  const form: BodyReaders['form'] = async (req, res) => {
    const type = req.headers['content-type'] ?? '';
    if (/^multipart\/form-data/i.test(type)) {
      await runBounded(multipart, req, res, { maxBytes: formBytes, fileBytes: limits.fileBytes, what: 'form data' });
      const files = ((req.files as Express.Multer.File[] | undefined) ?? []).map((file) => ({
        field: file.fieldname,
        filename: file.originalname,
        mediaType: file.mimetype,
        data: file.buffer,
      }));
      const body = { ...(req.body as Record<string, unknown>) };
      refuseSparseFields(body);
      return { body, files };
    }
    const parsed = await json(req, res);
    return { body: parsed.json, files: [], raw: parsed.raw };
  };

  return { json, form };
}

/** As many as a form may have fields (multer's `fields` limit above). */
const MAX_FORM_FIELDS = 100;

/**
 * Bracketed field names (`a[2]`, `a[b][c]`) make arrays and objects (multer's append-field): `foo[4294967294]=x`
 * made an array of 4 billion empty slots from a 409-byte form, which the media encoders walked for two minutes on the
 * event loop (and JSON.stringify refused: a 500). An index past what a form's fields can fill is a 400.
 */
function refuseSparseFields(value: unknown, name = ''): void {
  if (Array.isArray(value)) {
    if (value.length > MAX_FORM_FIELDS) {
      throw new GatewayError('GW_INVALID_REQUEST', `form field ${name}: an index above ${MAX_FORM_FIELDS - 1} (a form has at most ${MAX_FORM_FIELDS} fields)`, { param: name });
    }
    value.forEach((item, index) => refuseSparseFields(item, `${name}[${index}]`));
  } else if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) refuseSparseFields(item, name ? `${name}[${key}]` : key);
  }
}

/** A content type's charset parameter, quoted (either way) or not. */
const CHARSET_PARAM = /;\s*charset\s*=\s*["']?([^"';\s]+)["']?/i;

/** Charsets that are UTF-8 as far as JSON's bytes go (ASCII is a subset of it). */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

/**
 * A body whose content type declares another charset (`text/plain; charset=ISO-8859-1`, some HTTP clients' default)
 * is decoded with it and carried on as UTF-8, which every upstream reads; read as UTF-8 it lost its accented letters
 * to U+FFFD without a word. A charset the runtime cannot decode is a 415.
 */
function toUtf8(bytes: Buffer, type: string | undefined): Buffer {
  if (type === undefined || !type.includes('=')) return bytes;
  const charset = CHARSET_PARAM.exec(type)?.[1]?.toLowerCase();
  if (charset === undefined || UTF8_CHARSETS.has(charset)) return bytes;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    throw new GatewayError('GW_UNSUPPORTED_CONTENT_TYPE', `charset ${charset} is not supported; send the body as UTF-8`);
  }
  return Buffer.from(decoder.decode(bytes), 'utf8');
}

function parseJsonObject(bytes: Buffer): Record<string, unknown> {
  if (bytes.length === 0) throw new GatewayError('GW_INVALID_JSON', 'request body is empty; send a JSON object');
  // Before the parse: a body of millions of `[` under the size limit costs JSON.parse seconds and gigabytes (measured:
  // 26 MB, 3.3 s and 841 MB), where the scan stops at level 129 at once, and reads a 120 KB Claude Code body in ~30 µs.
  const hazard = scanJsonBytes(bytes, MAX_BODY_DEPTH);
  if (hazard?.kind === 'too-deep') {
    throw new GatewayError('GW_INVALID_REQUEST', `request body is nested deeper than ${MAX_BODY_DEPTH} levels of arrays and objects`);
  }
  if (hazard?.kind === 'number-overflow') {
    throw new GatewayError('GW_INVALID_REQUEST', `request body has a number too large for a 64-bit float (${hazard.number}); JSON would carry it on as null`);
  }
  let value: unknown;
  try {
    value = parseJsonBytes(bytes);
  } catch (error) {
    throw new GatewayError('GW_INVALID_JSON', `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GatewayError('GW_INVALID_REQUEST', 'request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

type Middleware = (req: Request, res: Response, next: (error?: unknown) => void) => void;

/** Runs a connect-style middleware as a promise, mapping body-parser and multer errors to GatewayErrors. */
function run(middleware: Middleware, req: Request, res: Response, fileBytes?: number): Promise<void> {
  return new Promise((resolve, reject) => {
    middleware(req, res, (error?: unknown) => (error ? reject(toBodyError(error, fileBytes)) : resolve()));
  });
}

/**
 * `run` for multer, which has no limit on a form's total, and for a JSON body of undeclared length, which body-parser
 * would read to its end before answering: the body's bytes are counted as the middleware reads them, and past
 * `maxBytes` reading stops and the answer is 413 at once.
 */
function runBounded(middleware: Middleware, req: Request, res: Response, limits: { maxBytes: number; fileBytes?: number; what: string }): Promise<void> {
  let refuse: (error: GatewayError) => void = () => {};
  const tooLarge = new Promise<never>((_resolve, reject) => (refuse = reject));
  let seen = 0;
  const count = (chunk: Buffer): void => {
    seen += chunk.length;
    if (seen <= limits.maxBytes) return;
    // The parser gets nothing more (what it holds is dropped with it); the rest of the upload is read and discarded.
    req.off('data', count);
    req.unpipe();
    req.resume();
    refuse(new GatewayError('GW_BODY_TOO_LARGE', `${limits.what} is larger than the limit of ${limits.maxBytes} bytes`));
  };
  const reading = run(middleware, req, res, limits.fileBytes).finally(() => req.off('data', count));
  // Listening once the middleware has piped the request: both see every chunk, and none flows before it is there.
  req.on('data', count);
  return Promise.race([reading, tooLarge]);
}

/** body-parser and multer errors → GatewayErrors; `fileBytes` names the file limit (multer's errors do not). */
function toBodyError(error: unknown, fileBytes?: number): GatewayError {
  if (isGatewayError(error)) return error;
  const e = error as { type?: string; code?: string; limit?: number; field?: string; message?: string };
  if (e.code === 'LIMIT_FILE_SIZE') {
    return new GatewayError('GW_BODY_TOO_LARGE', `file field "${e.field}" is larger than the limit${fileBytes ? ` of ${fileBytes} bytes` : ''}`, { param: e.field });
  }
  if (e.type === 'entity.too.large' || e.code === 'LIMIT_FIELD_VALUE') {
    const what = e.field ? `form field "${e.field}"` : 'request body';
    return new GatewayError('GW_BODY_TOO_LARGE', `${what} is larger than the limit${e.limit ? ` of ${e.limit} bytes` : ''}`, e.field ? { param: e.field } : {});
  }
  if (e.code === 'LIMIT_FILE_COUNT') return new GatewayError('GW_INVALID_REQUEST', `form data carries more than ${MAX_FORM_FILES} files`);
  if (e.code?.startsWith('LIMIT_') || e.type === 'entity.verify.failed' || e.message?.includes('Multipart')) {
    return new GatewayError('GW_INVALID_REQUEST', `malformed form data: ${e.message ?? e.code}`);
  }
  if (e.type === 'request.aborted') return new GatewayError('GW_INVALID_REQUEST', 'client aborted the request body', { cause: error });
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
    return new GatewayError('GW_UNSUPPORTED_CONTENT_TYPE', e.message ?? 'unsupported body encoding');
  }
  return new GatewayError('GW_INVALID_REQUEST', 'could not read the request body', { cause: error });
}
