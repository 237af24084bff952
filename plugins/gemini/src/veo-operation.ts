import { GatewayError, toVideoObject, type SecretMasker, type VideoObject } from '@gateway/core';
import { isRecord } from './gemini-json';
import { operationModel, type VeoVideoRef } from './veo-video-id';

/** Where a Veo operation stands (fixtures gemini-veo), in the order the fixtures README says to check it. */
export type VeoState =
  | { status: 'in_progress' }
  | { status: 'failed'; error: { code: string; message: string } }
  | { status: 'completed'; uris: string[] };

/** Not done (or `done` missing) → in progress; then `error`, then `raiMediaFilteredReasons`, then the sample URIs. */
export function readVeoOperation(json: unknown): VeoState {
  if (!isRecord(json)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream answered something that is not an operation');
  if (json.done !== true) return { status: 'in_progress' };
  if (isRecord(json.error)) {
    return { status: 'failed', error: { code: String(json.error.status ?? json.error.code ?? 'error'), message: typeof json.error.message === 'string' ? json.error.message : 'video generation failed' } };
  }
  const response = isRecord(json.response) && isRecord(json.response.generateVideoResponse) ? json.response.generateVideoResponse : isRecord(json.response) ? json.response : {};
  const filtered = Array.isArray(response.raiMediaFilteredReasons) ? response.raiMediaFilteredReasons.filter((reason): reason is string => typeof reason === 'string') : [];
  const samples = Array.isArray(response.generatedSamples) ? response.generatedSamples.filter(isRecord) : [];
  const uris = samples.flatMap((sample) => (isRecord(sample.video) && typeof sample.video.uri === 'string' ? [sample.video.uri] : []));
  if (uris.length === 0 && filtered.length > 0) return { status: 'failed', error: { code: 'content_filtered', message: filtered.join(' ') } };
  if (uris.length === 0) return { status: 'failed', error: { code: 'no_video', message: 'the operation finished without a video' } };
  return { status: 'completed', uris };
}

/**
 * The OpenAI video object of a Veo operation. Veo reports no progress (0 until done) and no completion time: a done
 * one is dated `fields.completedAt` (when the gateway first saw it done), else now.
 */
export function toVeoVideoObject(
  id: string,
  ref: VeoVideoRef,
  state: VeoState | { status: 'queued' },
  fields: { prompt?: string; seconds?: string; size?: string; completedAt?: number } = {},
): VideoObject {
  return toVideoObject({
    id,
    model: operationModel(ref.operation),
    status: state.status,
    created_at: ref.createdAt,
    completed_at: state.status === 'completed' || state.status === 'failed' ? (fields.completedAt ?? Math.floor(Date.now() / 1000)) : null,
    error: state.status === 'failed' ? state.error : null,
    prompt: fields.prompt ?? null,
    seconds: fields.seconds ?? null,
    size: fields.size ?? null,
  });
}
