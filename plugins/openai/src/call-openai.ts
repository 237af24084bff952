import {
  GatewayError,
  classifyUpstreamFailure,
  encodeMultipart,
  readUpstreamJson,
  readUpstreamFailure,
  sendUpstreamRequest,
  type PlatformBaseOptions,
  type RequestContext,
  type MultipartPart,
  type UpstreamResponse,
} from '@gateway/core';
import type { ApiKey, KeyRotation } from './create-key-rotation';

/** One call of a custom endpoint (images, videos, search) to the upstream. */
export interface OpenAiCall {
  method: 'GET' | 'POST';
  /** Path and query below the baseUrl, e.g. `/v1/images/generations`. */
  path: string;
  headers?: Record<string, string>;
  /** Raw body (multipart); else `json`. */
  body?: Buffer;
  json?: Record<string, unknown>;
  /** The key to send with (a video belongs to the project of the key that created it); default: the next of the rotation. */
  key?: ApiKey;
}

/** A POST body as a module shapes it: JSON, or multipart form data carrying the client's files. */
export type ShapedPost = { path: string; json: Record<string, unknown> } | { path: string; multipart: MultipartPart[] };

/** A shaped POST as an upstream call (multipart encoded with its boundary). */
export function toOpenAiCall(shaped: ShapedPost): OpenAiCall {
  if ('json' in shaped) return { method: 'POST', path: shaped.path, json: shaped.json };
  const { body, contentType } = encodeMultipart(shaped.multipart);
  return { method: 'POST', path: shaped.path, body, headers: { 'content-type': contentType } };
}

export interface OpenAiCaller {
  /**
   * With the call's own key: the upstream's answer as it came, any status, unless it is the key's fault (see
   * KeyRotation.callWith). Without: the next healthy key, another one when that key is at fault (see
   * KeyRotation.call); other failures are thrown, classified.
   */
  send(ctx: RequestContext, call: OpenAiCall): Promise<UpstreamResponse>;
  /** A 2xx answer, unread; anything else is thrown as a classified GatewayError. */
  sendOk(ctx: RequestContext, call: OpenAiCall): Promise<UpstreamResponse>;
  /** A 2xx JSON answer, parsed. */
  json(ctx: RequestContext, call: OpenAiCall): Promise<unknown>;
  /** Reads and classifies a failed answer (upstream message kept, keys masked). */
  failure(response: UpstreamResponse): Promise<GatewayError>;
}

/** Image answers carry base64 images: up to 10 of several megabytes each. */
const JSON_LIMIT_BYTES = 256 * 1024 * 1024;

/** Upstream calls of the plugin's own endpoints, with the call's own key or else the healthy keys of the rotation. */
export function createOpenAiCaller(options: PlatformBaseOptions, keys: Pick<KeyRotation, 'call' | 'callWith'>, secrets: readonly string[]): OpenAiCaller {
  const sendWith = (ctx: RequestContext, call: OpenAiCall, key: ApiKey): Promise<UpstreamResponse> =>
    sendUpstreamRequest(
      { mode: 'passthrough', format: 'other', method: call.method, path: call.path, headers: { accept: 'application/json', ...call.headers }, body: call.body, json: call.json, stream: false },
      ctx,
      options,
      { authorization: `Bearer ${key.secret}` },
    );
  const send: OpenAiCaller['send'] = (ctx, call) =>
    call.key ? keys.callWith(ctx, call.key, (key) => sendWith(ctx, call, key)) : keys.call(ctx, (key) => sendWith(ctx, call, key));
  const failure: OpenAiCaller['failure'] = async (response) => classifyUpstreamFailure(await readUpstreamFailure(response), secrets);
  const sendOk: OpenAiCaller['sendOk'] = async (ctx, call) => {
    const response = await send(ctx, call);
    if (response.status >= 200 && response.status < 300) return response;
    throw await failure(response);
  };
  return {
    send,
    sendOk,
    failure,
    async json(ctx, call) {
      const response = await sendOk(ctx, call);
      return readUpstreamJson(response, JSON_LIMIT_BYTES, call.path);
    },
  };
}
