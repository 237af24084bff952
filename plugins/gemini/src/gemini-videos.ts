import {
  createHeldWrites,
  geminiMethodPath,
  GatewayError,
  downloadRequestHeaders,
  followDownloadRedirects,
  parseVideoRequest,
  downloadResultOf,
  maskJsonStrings,
  isOwnRecord,
  ownershipReading,
  withOwner,
  wantsVideoDetail,
  withVideoDetail,
  type CustomHandler,
  type GatewaySettings,
  type PlatformBaseOptions,
  type RequestContext,
  type SecretMasker,
  type Store,
  type UpstreamResponse,
} from '@gateway/core';
import { PINNED_CREDENTIAL, USED_CREDENTIAL } from './create-gemini-caller';
import { bareModel, isRecord, type GeminiJsonCaller } from './gemini-json';
import { DEFAULT_VIDEO_MODEL, toVeoRequest, veoFormat, VEO_DEFAULT_SECONDS, VEO_DEFAULT_SIZE } from './to-veo-request';
import { readVeoOperation, toVeoVideoObject } from './veo-operation';
import { decodeVeoVideoId, encodeVeoVideoId, isVeoOperationName, type VeoVideoRef } from './veo-video-id';

export interface GeminiVideoDeps {
  caller: GeminiJsonCaller;
  upstream: Pick<PlatformBaseOptions, 'baseUrl' | 'timeouts'>;
  apiVersion: string;
  media: GatewaySettings['media'];
  videoModel?: string;
  /** Keeps what each video was asked for (namespace `veo-videos:<platform>`). */
  store: Store;
  platform: string;
  /** Masks the platform's keys out of what the upstream wrote before a client sees it. */
  mask: SecretMasker;
}

/**
 * What a video was asked for, which its operation does not repeat: the OpenAI video object carries it on every
 * retrieve. Kept as long as Veo keeps the video (two days) and more.
 */
type VeoRequestFields = {
  prompt?: string;
  seconds?: string;
  size?: string;
  /** When a retrieve first saw the operation done (Veo gives no time): every later retrieve answers the same. */
  completedAt?: number;
  /** The license that made it (ownerOf): another one's retrieve or download is a 404. */
  owner?: string;
};
const REQUEST_FIELDS_TTL_MS = 7 * 24 * 3600_000;

/**
 * Veo through the long-running-operation API, answering the OpenAI video object (DECISIONS §7): create starts
 * `:predictLongRunning`, the video id encodes the operation (and the key that owns it), get polls the operation,
 * content downloads the sample. Veo cannot remix: a clear 400.
 */
export function createGeminiVideoHandlers(deps: GeminiVideoDeps): Record<'create' | 'remix' | 'get' | 'content', CustomHandler> {
  const base = new URL(deps.upstream.baseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
  /** The path below baseUrl of a URL on the upstream itself; undefined for any other host. */
  const upstreamPath = (url: URL): string | undefined =>
    url.origin === base.origin && url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) + url.search : undefined;

  // Kept by operation, not by video id: one operation has many ids (a time written `0…`, another credential part),
  // and each must find the same record, its owner included.
  const namespace = `veo-videos:${deps.platform}`;
  // The fields name the license that may reach the video: ones the store failed to take are held in memory, not
  // dropped, or the video would answer every license (as a video of an earlier build without fields does).
  const records = createHeldWrites(deps.store);
  const remember = async (ctx: RequestContext, ref: VeoVideoRef, fields: VeoRequestFields): Promise<void> => {
    const failed = await records.set(namespace, ref.operation, fields, { ttlMs: REQUEST_FIELDS_TTL_MS });
    // The video exists upstream: answering it beats an error.
    if (failed) ctx.log.error('video request fields not saved; held in memory until the store takes them', { operation: ref.operation, error: failed.message });
  };

  /** The video of the route and its stored fields; another license's video is a 404 before any upstream call. */
  const videoOf = async (ctx: RequestContext): Promise<{ id: string; ref: VeoVideoRef; fields: VeoRequestFields | undefined }> => {
    const id = ctx.params.taskId ?? '';
    const ref = decodeVeoVideoId(id);
    // Records of earlier builds are kept by video id.
    const { reading, unreadable } = ownershipReading(ctx, 'video request fields');
    const byOperation = await records.get<VeoRequestFields>(namespace, ref.operation, reading);
    const fields = byOperation === undefined ? await deps.store.get<VeoRequestFields>(namespace, id, reading) : byOperation;
    if (unreadable() || !isOwnRecord(ctx, fields)) throw new GatewayError('GW_NOT_FOUND', `no video "${id}" on platform "${deps.platform}"`, { param: 'video_id' });
    return { id, ref, fields };
  };

  const operationOf = async (ctx: RequestContext, ref: VeoVideoRef): Promise<unknown> => {
    if (ref.credential) ctx.state.set(PINNED_CREDENTIAL, ref.credential);
    return deps.caller.json(ctx, { method: 'GET', path: `/${deps.apiVersion}/${ref.operation}` });
  };

  return {
    async create(request, ctx) {
      const parsed = parseVideoRequest(request, ctx);
      const model = bareModel(parsed.model ?? deps.videoModel ?? DEFAULT_VIDEO_MODEL);
      const json = await toVeoRequest(parsed, model, deps.media, ctx.signal);
      const answer = await deps.caller.json(ctx, { method: 'POST', path: geminiMethodPath(model, 'predictLongRunning', deps.apiVersion), json });
      if (!isRecord(answer) || typeof answer.name !== 'string') throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream did not answer an operation name');
      // A name no video id can carry would make a video (paid for) that no later call could reach.
      if (!isVeoOperationName(answer.name)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream answered an operation name that is not models/{model}/operations/{id}');
      const credential = ctx.state.get(USED_CREDENTIAL);
      const ref: VeoVideoRef = { operation: answer.name, credential: typeof credential === 'string' ? credential : '', createdAt: Math.floor(Date.now() / 1000) };
      const state = answer.done === true ? readVeoOperation(maskJsonStrings(answer, deps.mask)) : { status: 'queued' as const };
      const id = encodeVeoVideoId(ref);
      // The video object states what is made: Veo's own defaults where the request named none (the SDK types them as strings).
      const fields: VeoRequestFields = {
        prompt: parsed.prompt,
        seconds: parsed.seconds ?? VEO_DEFAULT_SECONDS,
        size: parsed.size ? veoFormat(parsed.size, model).size : VEO_DEFAULT_SIZE,
        ...(answer.done === true ? { completedAt: ref.createdAt } : {}),
        ...withOwner(ctx),
      };
      await remember(ctx, ref, fields);
      return { status: 200, json: toVeoVideoObject(id, ref, state, fields) };
    },

    async remix() {
      throw new GatewayError('GW_INVALID_REQUEST', 'Veo on the Gemini API cannot remix a video; create a new one with POST /v1/videos (an input_reference image sets its first frame)', { param: 'video_id' });
    },

    async get(_request, ctx) {
      const video = await videoOf(ctx);
      const { id, ref } = video;
      let { fields } = video;
      const operation = maskJsonStrings(await operationOf(ctx, ref), deps.mask);
      const state = readVeoOperation(operation);
      if (state.status !== 'in_progress' && fields?.completedAt === undefined) {
        fields = { ...fields, completedAt: Math.floor(Date.now() / 1000) };
        await remember(ctx, ref, fields);
      }
      return { status: 200, json: withVideoDetail(toVeoVideoObject(id, ref, state, fields), operation, wantsVideoDetail(ctx.query)) };
    },

    async content(_request, ctx) {
      const variant = ctx.query.variant ?? 'video';
      if (variant !== 'video') throw new GatewayError('GW_INVALID_REQUEST', `variant: Veo has no "${variant}" asset; only "video"`, { param: 'variant' });
      const { id, ref } = await videoOf(ctx);
      const json = await operationOf(ctx, ref);
      const state = readVeoOperation(json);
      if (state.status !== 'completed') {
        throw new GatewayError('GW_INVALID_REQUEST', `video "${id}" is ${state.status === 'failed' ? 'failed' : 'not completed yet'}; its content is available once it is completed`, { param: 'video_id' });
      }
      const url = URL.canParse(state.uris[0]) ? new URL(state.uris[0]) : undefined;
      if (!url) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `the operation of video "${id}" names its file by something that is not a URL`);
      const headers = downloadRequestHeaders(ctx.headers, 'video/mp4');
      // The key goes only to the upstream itself; storage it redirects to gets none. A 416 is the range's answer,
      // passed on with its `content-range` wherever it comes from.
      const send = (target: URL): Promise<UpstreamResponse> => {
        const path = upstreamPath(target);
        if (path !== undefined) return deps.caller.send(ctx, { method: 'GET', path, headers, passStatuses: [416] });
        return ctx.upstream.send({ url: target.toString(), method: 'GET', headers, signal: ctx.signal, timeouts: deps.upstream.timeouts });
      };
      const first = await send(url);
      const upstream = await followDownloadRedirects(first, {
        url,
        ctx,
        timeouts: deps.upstream.timeouts,
        headers,
        sameOrigin: (target) => (upstreamPath(target) !== undefined ? send(target) : undefined),
      });
      if (upstream.status >= 400 && upstream.status !== 416) {
        upstream.body.destroy();
        throw new GatewayError('GW_UPSTREAM_ERROR', `the video file could not be downloaded (HTTP ${upstream.status})`, { status: upstream.status === 404 ? 404 : 502 });
      }
      return downloadResultOf(upstream);
    },
  };
}
