import { sendGeminiError } from './gemini-errors';
import { headerValue, isRecord, safeDecode, sendJson } from './http-util';
import { SIM_MP4 } from './openai-videos';
import { simId } from './scenario';
import type { Exchange } from './types';

/**
 * Gemini media and search fakes: image models (`responseModalities` with IMAGE) answering an inline PNG, Imagen
 * `:predict`, Veo `:predictLongRunning` with its operation (done after two polls; `[sim:video-fail]` in the prompt
 * ends it filtered) and the video file (`files/{id}:download` answers a redirect to key-less storage, ranges
 * honoured), and `googleSearch` grounding.
 */

/** A 1×1 orange PNG (fixtures gemini/response-image.json). */
export const SIM_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';

/** Where the simulator mounts the Gemini API (see create-simulator). */
const PREFIX = '/gemini';
const STORAGE = /^\/sim-storage\/([\w-]+)\.mp4$/;

interface VeoJob {
  polls: number;
  fail: boolean;
  fileId: string;
}

function promptText(body: Record<string, unknown>): string {
  const texts: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isRecord(value)) {
      if (typeof value.text === 'string') texts.push(value.text);
      if (typeof value.prompt === 'string') texts.push(value.prompt);
      for (const [name, field] of Object.entries(value)) if (name !== 'inlineData' && name !== 'image') visit(field);
    }
  };
  visit(body.contents ?? body.instances);
  return texts.join(' ');
}

function origin(exchange: Exchange): string {
  return `http://${headerValue(exchange.req.headers.host) ?? 'localhost'}`;
}

function wantsImage(body: Record<string, unknown>): boolean {
  const config = isRecord(body.generationConfig) ? body.generationConfig : {};
  return Array.isArray(config.responseModalities) && config.responseModalities.includes('IMAGE');
}

function hasGoogleSearch(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.some((tool) => isRecord(tool) && (isRecord(tool.googleSearch) || isRecord(tool.google_search)));
}

function imageAnswer(model: string, counter: number): Record<string, unknown> {
  return {
    candidates: [{ content: { parts: [{ text: 'Here is a single orange pixel.' }, { inlineData: { mimeType: 'image/png', data: SIM_PNG_BASE64 } }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 1297, totalTokenCount: 1308 },
    modelVersion: model,
    responseId: simId(counter, 23),
  };
}

/** Two sources per query found in the prompt's quoted queries (`Search the web for: "…"`). */
function groundedAnswer(model: string, prompt: string, counter: number): Record<string, unknown> {
  const queries = [...prompt.matchAll(/Search the web for: "((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]);
  if (queries.length === 0) queries.push(prompt.slice(0, 40));
  const chunks: Record<string, unknown>[] = [];
  const supports: Record<string, unknown>[] = [];
  const sentences: string[] = [];
  let offset = 0;
  queries.forEach((query, i) => {
    const slug = query.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'query';
    chunks.push({ web: { uri: `https://example.com/${slug}`, title: `example.com` } }, { web: { uri: `https://docs.example.org/${slug}`, title: 'docs.example.org' } });
    const sentence = `Result ${i + 1} about ${query}.`;
    sentences.push(sentence);
    supports.push({ segment: { startIndex: offset, endIndex: offset + sentence.length, text: sentence }, groundingChunkIndices: [i * 2, i * 2 + 1] });
    offset += sentence.length + 1;
  });
  return {
    candidates: [{
      content: { parts: [{ text: sentences.join(' ') }], role: 'model' },
      finishReason: 'STOP',
      index: 0,
      groundingMetadata: { webSearchQueries: queries, groundingChunks: chunks, groundingSupports: supports, searchEntryPoint: { renderedContent: '<div></div>' } },
    }],
    usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 10, totalTokenCount: 30 },
    modelVersion: model,
    responseId: simId(counter, 23),
  };
}

function imagenAnswer(body: Record<string, unknown>): Record<string, unknown> {
  const parameters = isRecord(body.parameters) ? body.parameters : {};
  const count = typeof parameters.sampleCount === 'number' ? Math.min(4, Math.max(1, parameters.sampleCount)) : 1;
  const predictions: Record<string, unknown>[] = Array.from({ length: count }, () => ({ bytesBase64Encoded: SIM_PNG_BASE64, mimeType: 'image/png' }));
  predictions.push({ raiFilteredReason: 'One image was filtered (simulated).' }, { contentType: 'Positive Prompt', safetyAttributes: { categories: ['Violence'], scores: [0] } });
  return { predictions };
}

function operation(exchange: Exchange, model: string, id: string): Record<string, unknown> | undefined {
  const job = exchange.state.get(`gemini-veo:${id}`) as VeoJob | undefined;
  if (!job) return undefined;
  job.polls += 1;
  const name = `models/${model}/operations/${id}`;
  if (job.polls < 2) return { name, done: false };
  const type = 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse';
  if (job.fail) {
    return { name, done: true, response: { '@type': type, generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['The prompt was filtered (simulated).'] } } };
  }
  const uri = `${origin(exchange)}${PREFIX}/v1beta/files/${job.fileId}:download?alt=media`;
  return { name, done: true, response: { '@type': type, generateVideoResponse: { generatedSamples: [{ video: { uri } }] } } };
}

/** Key-less storage the file download redirects to; false for other paths. */
export function handleGeminiStorage(exchange: Exchange): boolean {
  const match = STORAGE.exec(exchange.path);
  if (!match || exchange.method !== 'GET') return false;
  const bytes = SIM_MP4;
  const range = /^bytes=(\d+)-(\d*)$/.exec(headerValue(exchange.req.headers.range) ?? '');
  const start = range ? Number(range[1]) : 0;
  const end = range && range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
  if (start >= bytes.length || start > end) {
    exchange.res.writeHead(416, { 'content-range': `bytes */${bytes.length}`, 'content-length': 0 });
    exchange.res.end();
    return true;
  }
  const body = bytes.subarray(start, end + 1);
  const headers: Record<string, string | number> = { 'content-type': 'video/mp4', 'content-length': body.length, 'accept-ranges': 'bytes' };
  if (range) headers['content-range'] = `bytes ${start}-${end}/${bytes.length}`;
  exchange.res.writeHead(range ? 206 : 200, headers);
  exchange.res.end(body);
  return true;
}

/** Handles a media or search request (the key already checked); false when the request is not one. */
export function handleGeminiMedia(exchange: Exchange): boolean {
  const { method, body } = exchange;
  const path = safeDecode(exchange.path);
  const download = /^\/v1beta\/files\/([\w-]+):download$/.exec(path);
  if (download && method === 'GET') {
    exchange.res.writeHead(302, { location: `${origin(exchange)}${PREFIX}/sim-storage/${download[1]}.mp4`, 'content-length': 0 });
    exchange.res.end();
    return true;
  }
  const op = /^\/v1beta\/models\/([^/:]+)\/operations\/([\w-]+)$/.exec(path);
  if (op && method === 'GET') {
    const found = operation(exchange, op[1], op[2]);
    if (found) sendJson(exchange.res, 200, found);
    else sendGeminiError(exchange, { code: 404, message: `Operation ${op[2]} not found.`, status: 'NOT_FOUND' });
    return true;
  }
  const call = /^\/(?:v1beta|v1)\/models\/([^/:]+):(predict|predictLongRunning|generateContent)$/.exec(path);
  if (!call || method !== 'POST' || !isRecord(body)) return false;
  const [, model, action] = call;
  if (action === 'predict') {
    sendJson(exchange.res, 200, imagenAnswer(body));
    return true;
  }
  if (action === 'predictLongRunning') {
    const id = simId(exchange.nextId(), 12).toLowerCase();
    exchange.state.set(`gemini-veo:${id}`, { polls: 0, fail: /\[sim:video-fail\]/.test(promptText(body)), fileId: `f${id}` } satisfies VeoJob);
    sendJson(exchange.res, 200, { name: `models/${model}/operations/${id}` });
    return true;
  }
  // As Google's API: Imagen models serve `:predict` only.
  if (/^imagen-/.test(model)) {
    sendGeminiError(exchange, { code: 404, message: `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`, status: 'NOT_FOUND' });
    return true;
  }
  if (/\[sim:/.test(promptText(body))) return false;
  if (wantsImage(body)) {
    sendJson(exchange.res, 200, imageAnswer(model, exchange.nextId()));
    return true;
  }
  if (hasGoogleSearch(body)) {
    sendJson(exchange.res, 200, groundedAnswer(model, promptText(body), exchange.nextId()));
    return true;
  }
  return false;
}
