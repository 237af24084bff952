import {
  decodeVideoObject,
  downloadRequestHeaders,
  followDownloadRedirects,
  parseVideoRequest,
  downloadResultOf,
  maskJsonStrings,
  GatewayError,
  wantsVideoDetail,
  withVideoDetail,
  type CustomHandler,
  type CustomResult,
  type PlatformBaseOptions,
  type RequestContext,
  type SecretMasker,
} from '@gateway/core';
import { toOpenAiCall, type OpenAiCall, type OpenAiCaller, type ShapedPost } from './call-openai';
import type { ApiKey, KeyRotation } from './create-key-rotation';
import type { OpenAiVideoKeys } from './openai-video-keys';
import { toOpenAiRemixRequest, toOpenAiVideoRequest } from './to-openai-video-request';

export interface OpenAiVideoDeps {
  call: OpenAiCaller;
  keys: Pick<KeyRotation, 'next' | 'byId'>;
  /** Which key created which video: retrieve, content and remix go with that key. */
  videoKeys: OpenAiVideoKeys;
  options: PlatformBaseOptions;
  /** For the upstream's video records: their error text (and `detail=true`) can quote the key, even on a 200. */
  mask: SecretMasker;
}

/**
 * The OpenAI Videos API (Sora): create, remix, retrieve (`detail=true` adds the upstream's record), content. A video
 * belongs to the project of the key that created it, so every later call about it uses that key (`videoKeys`).
 */
/** `ctx.state` key set by callWithCredentials: the credential (key id) that made the last call. */
const USED_KEY = 'credential';

export function createOpenAiVideoHandlers(deps: OpenAiVideoDeps): Record<'create' | 'remix' | 'get' | 'content', CustomHandler> {
  const { call, options, videoKeys, mask } = deps;
  /**
   * Creates a video (or a remix) with `key`, or with the healthy keys of the rotation (another one when a key is at
   * fault), and remembers the key that made it for the new id.
   */
  const videoAnswer = async (ctx: RequestContext, shaped: ShapedPost, key?: ApiKey): Promise<CustomResult> => {
    const video = decodeVideoObject(maskJsonStrings(await call.json(ctx, { ...toOpenAiCall(shaped), key }), mask));
    const used = key ?? deps.keys.byId(String(ctx.state.get(USED_KEY)));
    if (used) await videoKeys.remember(ctx, video.id, used);
    return { status: 200, json: video };
  };
  /** The key for a call about an existing video: its creating key when the gateway knows it, else the rotation's next. */
  const keyOf = async (ctx: RequestContext): Promise<ApiKey> => (await videoKeys.keyFor(ctx, taskId(ctx))) ?? deps.keys.next();
  return {
    create: async (request, ctx) => videoAnswer(ctx, toOpenAiVideoRequest(parseVideoRequest(request, ctx), ctx.platform)),
    remix: async (request, ctx) => {
      const shaped = toOpenAiRemixRequest(parseVideoRequest(request, ctx), taskId(ctx), ctx.platform);
      // The remix lands in the source video's project: the same key reaches both.
      return videoAnswer(ctx, shaped, await keyOf(ctx));
    },
    get: async (_request, ctx) => {
      const json = maskJsonStrings(await call.json(ctx, { method: 'GET', path: `/v1/videos/${encodeURIComponent(taskId(ctx))}`, key: await keyOf(ctx) }), mask);
      return { status: 200, json: withVideoDetail(decodeVideoObject(json), json, wantsVideoDetail(ctx.query)) };
    },
    content: async (_request, ctx) => {
      const query = ctx.query.variant ? `?variant=${encodeURIComponent(ctx.query.variant)}` : '';
      const path = `/v1/videos/${encodeURIComponent(taskId(ctx))}/content${query}`;
      const headers = downloadRequestHeaders(ctx.headers, 'application/binary');
      const first: OpenAiCall = { method: 'GET', path, headers, key: await keyOf(ctx) };
      const base = new URL(options.baseUrl);
      const basePath = base.pathname.replace(/\/$/, '');
      const upstream = await followDownloadRedirects(await call.send(ctx, first), {
        url: new URL(options.baseUrl + path),
        ctx,
        timeouts: options.timeouts,
        headers,
        // A hop within the upstream keeps the API key (the same one); storage elsewhere gets none.
        sameOrigin: (url) =>
          url.origin === base.origin && url.pathname.startsWith(`${basePath}/`)
            ? call.send(ctx, { ...first, path: url.pathname.slice(basePath.length) + url.search })
            : undefined,
      });
      // A 416 is an answer to the range, not a failure: its `content-range: bytes */N` tells the client the size.
      if (upstream.status >= 400 && upstream.status !== 416) throw await call.failure(upstream);
      return downloadResultOf(upstream);
    },
  };
}

/**
 * The video id of the route. `.` and `..` are no id: the upstream's URL would read them as path steps (`%2E%2E` too)
 * and the call would reach another path with the operator's key.
 */
function taskId(ctx: RequestContext): string {
  const id = ctx.params.taskId ?? '';
  if (id === '.' || id === '..') throw new GatewayError('GW_NOT_FOUND', `no video "${id}"`, { param: 'video_id' });
  return id;
}
