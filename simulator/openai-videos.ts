import { parseDirectives } from './directives';
import { headerValue, isRecord, safeDecode, sendJson, sleep } from './http-util';
import { readForm } from './multipart';
import { missingParameter, sendOpenAiError, statusError, type OpenAiError } from './openai-errors';
import { SIM_CREATED, simId } from './scenario';
import type { Exchange } from './types';

/**
 * OpenAI Videos API (Sora): `POST /v1/videos` (JSON or multipart), `GET /v1/videos/{id}` moving queued →
 * in_progress → completed over two polls, `GET /v1/videos/{id}/content` (a small fake MP4, ranges honoured),
 * `POST /v1/videos/{id}/remix` and `DELETE /v1/videos/{id}`. `[sim:video-fail]` in the prompt ends the job
 * failed; `[sim:delay=MS]` paces the content download in four pieces.
 */

/** The MP4 every completed job serves: an `ftyp` box and 64 KiB of `mdat` with a byte pattern. */
export const SIM_MP4 = buildMp4(64 * 1024);
/** `variant=thumbnail` (WebP header) and `variant=spritesheet` (JPEG header). */
export const SIM_THUMBNAIL = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'), Buffer.alloc(24, 7)]);
export const SIM_SPRITESHEET = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(28, 9), Buffer.from([0xff, 0xd9])]);

const SECONDS = new Set(['4', '8', '12']);
const SIZES = new Set(['720x1280', '1280x720', '1024x1792', '1792x1024']);

interface VideoJob {
  video: Record<string, unknown>;
  polls: number;
  fail: boolean;
  delayMs: number;
}

function key(id: string): string {
  return `openai-video:${id}`;
}

function job(exchange: Exchange, id: string): VideoJob | undefined {
  return exchange.state.get(key(id)) as VideoJob | undefined;
}

function notFound(id: string): OpenAiError {
  return { status: 404, message: `Video with id '${id}' not found.`, type: 'invalid_request_error', param: null, code: null };
}

function invalid(param: string, message: string): OpenAiError {
  return { status: 400, message, type: 'invalid_request_error', param, code: 'invalid_value' };
}

function newJob(exchange: Exchange, fields: Record<string, unknown>, remixOf?: Record<string, unknown>): VideoJob {
  const id = `video_${simId(exchange.nextId(), 48)}`;
  const prompt = String(fields.prompt);
  const { directives } = parseDirectives(prompt);
  const video = {
    id,
    object: 'video',
    created_at: SIM_CREATED,
    status: 'queued',
    completed_at: null,
    error: null,
    expires_at: null,
    model: remixOf ? remixOf.model : typeof fields.model === 'string' ? fields.model : 'sora-2',
    progress: 0,
    prompt,
    remixed_from_video_id: remixOf ? remixOf.id : null,
    seconds: remixOf ? remixOf.seconds : typeof fields.seconds === 'string' ? fields.seconds : '4',
    size: remixOf ? remixOf.size : typeof fields.size === 'string' ? fields.size : '720x1280',
  };
  const created: VideoJob = { video, polls: 0, fail: /\[sim:video-fail\]/.test(prompt), delayMs: directives.delayMs ?? 0 };
  exchange.state.set(key(id), created);
  return created;
}

async function create(exchange: Exchange): Promise<void> {
  const form = await readForm(exchange);
  const fields: Record<string, unknown> = form ? { ...form.fields } : isRecord(exchange.body) ? exchange.body : {};
  if (typeof fields.prompt !== 'string' || fields.prompt === '') return sendOpenAiError(exchange, missingParameter('prompt'));
  if (fields.seconds !== undefined && (typeof fields.seconds !== 'string' || !SECONDS.has(fields.seconds))) {
    return sendOpenAiError(exchange, invalid('seconds', `Invalid value: '${String(fields.seconds)}'. Supported values are: '4', '8', and '12'.`));
  }
  if (fields.size !== undefined && (typeof fields.size !== 'string' || !SIZES.has(fields.size))) {
    return sendOpenAiError(exchange, invalid('size', `Invalid value: '${String(fields.size)}'. Supported values are: '720x1280', '1280x720', '1024x1792', and '1792x1024'.`));
  }
  const files = form?.files ?? [];
  const stray = files.find((file) => file.field !== 'input_reference');
  if (stray) return sendOpenAiError(exchange, invalid(stray.field, `Unexpected file field '${stray.field}'.`));
  const { directives } = parseDirectives(fields.prompt);
  if (directives.error !== undefined) return sendOpenAiError(exchange, statusError(directives.error, String(fields.model ?? 'sora-2')));
  sendJson(exchange.res, 200, newJob(exchange, fields).video);
}

/** Each poll moves the job on: queued → in_progress (50 %) → completed (or failed). */
function retrieve(exchange: Exchange, id: string): void {
  const found = job(exchange, id);
  if (!found) return sendOpenAiError(exchange, notFound(id));
  const { video } = found;
  if (video.status === 'queued' || video.status === 'in_progress') {
    found.polls += 1;
    if (found.polls === 1) Object.assign(video, { status: 'in_progress', progress: 50 });
    else if (found.fail) {
      Object.assign(video, { status: 'failed', progress: 0, completed_at: SIM_CREATED + 30, error: { code: 'moderation_blocked', message: 'Your request was blocked by our moderation system.' } });
    } else Object.assign(video, { status: 'completed', progress: 100, completed_at: SIM_CREATED + 120, expires_at: SIM_CREATED + 120 + 86_400 });
  }
  sendJson(exchange.res, 200, video);
}

function remix(exchange: Exchange, id: string): void {
  const source = job(exchange, id);
  if (!source) return sendOpenAiError(exchange, notFound(id));
  const fields = isRecord(exchange.body) ? exchange.body : {};
  if (typeof fields.prompt !== 'string' || fields.prompt === '') return sendOpenAiError(exchange, missingParameter('prompt'));
  if (source.video.status !== 'completed') return sendOpenAiError(exchange, invalid('video_id', `Video '${id}' must be completed before it can be remixed.`));
  sendJson(exchange.res, 200, newJob(exchange, fields, source.video).video);
}

async function content(exchange: Exchange, id: string): Promise<void> {
  const found = job(exchange, id);
  if (!found) return sendOpenAiError(exchange, notFound(id));
  if (found.video.status !== 'completed') {
    return sendOpenAiError(exchange, { status: 404, message: `Video '${id}' is not ready yet (status: ${String(found.video.status)}).`, type: 'invalid_request_error', param: null, code: null });
  }
  const variant = exchange.query.variant ?? 'video';
  const assets: Record<string, [Buffer, string]> = { video: [SIM_MP4, 'video/mp4'], thumbnail: [SIM_THUMBNAIL, 'image/webp'], spritesheet: [SIM_SPRITESHEET, 'image/jpeg'] };
  const asset = assets[variant];
  if (!asset) return sendOpenAiError(exchange, invalid('variant', `Invalid value: '${variant}'. Supported values are: 'video', 'thumbnail', and 'spritesheet'.`));
  const [bytes, type] = asset;
  const range = parseRange(headerValue(exchange.req.headers.range), bytes.length);
  if (range === 'unsatisfiable') {
    exchange.res.writeHead(416, { 'content-range': `bytes */${bytes.length}`, 'content-length': 0 });
    exchange.res.end();
    return;
  }
  const body = range ? bytes.subarray(range.start, range.end + 1) : bytes;
  const headers: Record<string, string | number> = { 'content-type': type, 'content-length': body.length, 'accept-ranges': 'bytes' };
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${bytes.length}`;
  exchange.res.writeHead(range ? 206 : 200, headers);
  if (found.delayMs <= 0) {
    exchange.res.end(body);
    return;
  }
  const piece = Math.ceil(body.length / 4);
  for (let at = 0; at < body.length; at += piece) {
    if (exchange.signal.aborted || exchange.res.destroyed) return;
    exchange.res.write(body.subarray(at, at + piece));
    if (at + piece < body.length) await sleep(found.delayMs, exchange.signal);
  }
  exchange.res.end();
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` (one range); undefined without a usable header. */
function parseRange(header: string | undefined, length: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, length - Number(match[2]));
    end = length - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? length - 1 : Math.min(Number(match[2]), length - 1);
  }
  return start >= length || start > end ? 'unsatisfiable' : { start, end };
}

function buildMp4(size: number): Buffer {
  const ftyp = Buffer.alloc(32);
  ftyp.writeUInt32BE(32, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isomiso2avc1mp41', 16, 'latin1');
  const mdat = Buffer.alloc(size - ftyp.length);
  mdat.writeUInt32BE(mdat.length, 0);
  mdat.write('mdat', 4, 'latin1');
  for (let i = 8; i < mdat.length; i += 1) mdat[i] = (i * 31) & 0xff;
  return Buffer.concat([ftyp, mdat]);
}

/** Routes `/v1/videos…`; false when the path is not a videos path. */
export async function handleOpenAiVideos(exchange: Exchange): Promise<boolean> {
  const { method, path } = exchange;
  if (path === '/v1/videos' && method === 'POST') {
    await create(exchange);
    return true;
  }
  const match = /^\/v1\/videos\/([^/]+)(\/content|\/remix)?$/.exec(path);
  if (!match) return false;
  const id = safeDecode(match[1]);
  if (match[2] === '/content' && method === 'GET') await content(exchange, id);
  else if (match[2] === '/remix' && method === 'POST') remix(exchange, id);
  else if (!match[2] && method === 'GET') retrieve(exchange, id);
  else if (!match[2] && method === 'DELETE') {
    if (!exchange.state.delete(key(id))) sendOpenAiError(exchange, notFound(id));
    else sendJson(exchange.res, 200, { id, object: 'video.deleted', deleted: true });
  } else return false;
  return true;
}
