import { readUpstreamJson, type RequestContext, type UpstreamResponse } from '@gateway/core';
import type { GeminiCaller } from './create-gemini-caller';

/** Image and operation answers carry base64 media: up to several images of several megabytes each. */
const JSON_LIMIT_BYTES = 256 * 1024 * 1024;

export interface GeminiCall {
  method: 'GET' | 'POST';
  /** Path and query below the baseUrl, e.g. `/v1beta/models/imagen-4.0-generate-001:predict`. */
  path: string;
  json?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Failure statuses answered as they came instead of thrown (see GeminiCallOptions). */
  passStatuses?: readonly number[];
}

/** The plugin's own upstream calls (images, videos, search) through the key rotation. */
export interface GeminiJsonCaller {
  /** A 2xx answer (or one of `passStatuses`), unread; failures are thrown classified (see createGeminiCaller). */
  send(ctx: RequestContext, call: GeminiCall): Promise<UpstreamResponse>;
  /** A 2xx JSON answer, parsed. */
  json(ctx: RequestContext, call: GeminiCall): Promise<unknown>;
}

export function createGeminiJsonCaller(call: GeminiCaller): GeminiJsonCaller {
  const send: GeminiJsonCaller['send'] = (ctx, request) =>
    call(
      { mode: 'passthrough', format: 'other', method: request.method, path: request.path, headers: { accept: 'application/json', ...request.headers }, json: request.json, stream: false },
      ctx,
      { passStatuses: request.passStatuses },
    );
  return {
    send,
    async json(ctx, request) {
      const response = await send(ctx, request);
      return readUpstreamJson(response, JSON_LIMIT_BYTES, request.path.split('?')[0]);
    },
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `models/x` or `x` → `x`. */
export function bareModel(model: string): string {
  return model.replace(/^models\//, '');
}
