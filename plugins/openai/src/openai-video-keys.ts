import { createHeldWrites, GatewayError, isOwnRecord, ownerOf, ownershipReading, type RequestContext, type Store } from '@gateway/core';
import type { OpenAiCaller } from './call-openai';
import type { ApiKey, KeyRotation } from './create-key-rotation';

/**
 * How long the gateway remembers which key created a video. OpenAI keeps a video's assets for about a day after it
 * completes (`expires_at`); a week also covers a long queue.
 */
const DEFAULT_TTL_MS = 7 * 24 * 3600_000;

/** What the store keeps per video id: the credential id only, never the key, and the license that made it. */
interface VideoKeyRecord {
  credential: string;
  owner?: string;
}

export interface OpenAiVideoKeys {
  /** Records that `videoId` belongs to the project of `key` (the key that created it, or the one a remix was sent with). */
  remember(ctx: RequestContext, videoId: string, key: ApiKey): Promise<void>;
  /**
   * The key every call about `videoId` must use. Undefined when the gateway does not know which key created it
   * (created before the gateway remembered, or elsewhere): the call takes the next key of the rotation, as before.
   * A video another license made is a 404, as an unknown one is upstream.
   */
  keyFor(ctx: RequestContext, videoId: string): Promise<ApiKey | undefined>;
}

export interface OpenAiVideoKeysOptions {
  store: Store;
  platform: string;
  keys: Pick<KeyRotation, 'byId' | 'all'>;
  call: OpenAiCaller;
  ttlMs?: number;
}

/**
 * OpenAI scopes a video to the project of the API key that created it: with several keys configured, retrieve,
 * content and remix must use that key, or they answer 404. The gateway keeps the upstream's video id unchanged
 * (clients and SDKs pass it back) and remembers id → credential id in the store, so this survives a restart.
 */
export function createOpenAiVideoKeys(options: OpenAiVideoKeysOptions): OpenAiVideoKeys {
  const { store, keys, call } = options;
  const namespace = `openai-video-keys:${options.platform}`;
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;

  // The record says which license may reach the video: one the store failed to take is held in memory, not dropped,
  // or the video would answer every license (a record-less video is one the gateway did not create).
  const records = createHeldWrites(store);
  const save = async (ctx: RequestContext, videoId: string, key: ApiKey, owner: string | undefined): Promise<void> => {
    const failed = await records.set<VideoKeyRecord>(namespace, videoId, { credential: key.id, ...(owner === undefined ? {} : { owner }) }, { ttlMs });
    // The video exists upstream; answering it still beats an error.
    if (failed) ctx.log.error('video key not saved; held in memory until the store takes it', { videoId, credential: key.id, error: failed.message });
  };

  /**
   * The creating key is no longer configured. Another key of the same project (a rotated key) still sees the video,
   * so each configured key is asked for it; the first that answers 2xx becomes the video's key. None: the first
   * failure that is not a 404 (a rate limit says more than "not found"), else the upstream's own 404.
   */
  async function adopt(ctx: RequestContext, videoId: string, gone: string, owner: string | undefined): Promise<ApiKey> {
    ctx.log.debug('creating key of a video no longer configured; looking for another', { videoId, credential: gone });
    const failures: GatewayError[] = [];
    for (const key of keys.all) {
      const response = await call.send(ctx, { method: 'GET', path: `/v1/videos/${encodeURIComponent(videoId)}`, key });
      if (response.status >= 200 && response.status < 300) {
        response.body.destroy();
        await save(ctx, videoId, key, owner);
        return key;
      }
      failures.push(await call.failure(response));
    }
    throw failures.find((failure) => failure.status !== 404) ?? failures[0] ?? new GatewayError('GW_NO_CREDENTIAL', `platform "${options.platform}" has no API key configured`);
  }

  return {
    remember: (ctx, videoId, key) => save(ctx, videoId, key, ownerOf(ctx)),

    async keyFor(ctx, videoId) {
      const notFound = (): GatewayError => new GatewayError('GW_NOT_FOUND', `no video "${videoId}" on platform "${options.platform}"`, { param: 'video_id' });
      const { reading, unreadable } = ownershipReading(ctx, 'video key record');
      const record = await records.get<VideoKeyRecord>(namespace, videoId, reading);
      if (unreadable()) throw notFound();
      if (record === undefined) return undefined;
      if (!isOwnRecord(ctx, record)) throw notFound();
      return keys.byId(record.credential) ?? adopt(ctx, videoId, record.credential, record.owner);
    },
  };
}
