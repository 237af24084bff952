import {
  decodeVideoObject,
  downloadRequestHeaders,
  followDownloadRedirects,
  parseVideoRequest,
  downloadResultOf,
  wantsVideoDetail,
  withVideoDetail,
  type CustomHandler,
  type CustomResult,
  type PlatformBaseOptions,
  type RequestContext,
} from '@gateway/core';
import { toOpenAiCall, type OpenAiCaller, type ShapedPost } from './call-openai';
import { toOpenAiRemixRequest, toOpenAiVideoRequest } from './to-openai-video-request';

/** The OpenAI Videos API (Sora): create, remix, retrieve (`detail=true` adds the upstream's record), content. */
export function createOpenAiVideoHandlers(call: OpenAiCaller, options: PlatformBaseOptions): Record<'create' | 'remix' | 'get' | 'content', CustomHandler> {
  const videoAnswer = async (ctx: RequestContext, shaped: ShapedPost): Promise<CustomResult> => {
    const json = await call.json(ctx, toOpenAiCall(shaped));
    return { status: 200, json: decodeVideoObject(json) };
  };
  return {
    create: async (request, ctx) => videoAnswer(ctx, toOpenAiVideoRequest(parseVideoRequest(request, ctx), ctx.platform)),
    remix: async (request, ctx) => videoAnswer(ctx, toOpenAiRemixRequest(parseVideoRequest(request, ctx), taskId(ctx), ctx.platform)),
    get: async (_request, ctx) => {
      const json = await call.json(ctx, { method: 'GET', path: `/v1/videos/${encodeURIComponent(taskId(ctx))}` });
      return { status: 200, json: withVideoDetail(decodeVideoObject(json), json, wantsVideoDetail(ctx.query)) };
    },
    content: async (_request, ctx) => {
      const query = ctx.query.variant ? `?variant=${encodeURIComponent(ctx.query.variant)}` : '';
      const path = `/v1/videos/${encodeURIComponent(taskId(ctx))}/content${query}`;
      const headers = downloadRequestHeaders(ctx.headers, 'application/binary');
      const base = new URL(options.baseUrl);
      const basePath = base.pathname.replace(/\/$/, '');
      const upstream = await followDownloadRedirects(await call.send(ctx, { method: 'GET', path, headers }), {
        url: new URL(options.baseUrl + path),
        ctx,
        timeouts: options.timeouts,
        headers,
        // A hop within the upstream keeps the API key; storage elsewhere gets none.
        sameOrigin: (url) => (url.origin === base.origin && url.pathname.startsWith(`${basePath}/`) ? call.send(ctx, { method: 'GET', path: url.pathname.slice(basePath.length) + url.search, headers }) : undefined),
      });
      if (upstream.status >= 400) throw await call.failure(upstream);
      return downloadResultOf(upstream);
    },
  };
}

function taskId(ctx: RequestContext): string {
  return ctx.params.taskId ?? '';
}
