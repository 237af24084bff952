import { GatewayError } from '../errors/gateway-error';

export type VideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

/**
 * The video task every platform answers (spec 2.6, DECISIONS §7): the OpenAI Videos API object, field order as the
 * API sends it. `detail` (the upstream's own record) is added only when the client asks `detail=true`.
 */
export interface VideoObject {
  id: string;
  object: 'video';
  created_at: number;
  status: VideoStatus;
  completed_at: number | null;
  error: { code: string; message: string } | null;
  expires_at: number | null;
  model: string;
  progress: number;
  prompt: string | null;
  remixed_from_video_id: string | null;
  seconds: string | null;
  size: string | null;
  detail?: unknown;
}

const KNOWN_FIELDS = new Set([
  'id', 'object', 'created_at', 'status', 'completed_at', 'error', 'expires_at', 'model', 'progress', 'prompt',
  'remixed_from_video_id', 'seconds', 'size', 'detail',
]);

export type VideoFields = Pick<VideoObject, 'id' | 'model' | 'status' | 'created_at'> &
  Partial<Omit<VideoObject, 'object' | 'id' | 'model' | 'status' | 'created_at' | 'detail'>>;

/**
 * A complete video object from what a platform knows; missing fields are null (progress 0, or 100 once completed).
 * `extra` fields (an upstream's newer ones) follow the known ones.
 */
export function toVideoObject(fields: VideoFields, extra: Record<string, unknown> = {}): VideoObject {
  const { id, created_at, status, model, completed_at, error, expires_at, progress, prompt, remixed_from_video_id, seconds, size } = fields;
  const video: VideoObject = {
    id,
    object: 'video',
    created_at,
    status,
    completed_at: completed_at ?? null,
    error: error ?? null,
    expires_at: expires_at ?? null,
    model,
    progress: progress ?? (status === 'completed' ? 100 : 0),
    prompt: prompt ?? null,
    remixed_from_video_id: remixed_from_video_id ?? null,
    seconds: seconds ?? null,
    size: size ?? null,
  };
  for (const [name, value] of Object.entries(extra)) if (!KNOWN_FIELDS.has(name)) Object.assign(video, { [name]: value });
  return video;
}

const STATUSES = new Set<string>(['queued', 'in_progress', 'completed', 'failed']);

function numberOr<T>(value: unknown, fallback: T): number | T {
  return typeof value === 'number' ? value : fallback;
}

function stringOr(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function isErrorObject(value: unknown): value is { code?: unknown; message?: unknown } {
  return typeof value === 'object' && value !== null;
}

/**
 * An upstream that already speaks the OpenAI Videos API: its object checked and completed. Fields the gateway
 * does not know are kept. A body that is not a video object is a 502.
 */
export function decodeVideoObject(json: unknown): VideoObject {
  const value = json as Record<string, unknown> | null;
  if (!value || typeof value !== 'object' || typeof value.id !== 'string' || typeof value.status !== 'string' || !STATUSES.has(value.status)) {
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream answered something that is not a video object');
  }
  const extra: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) if (!KNOWN_FIELDS.has(name)) extra[name] = field;
  return toVideoObject(
    {
      id: value.id,
      status: value.status as VideoStatus,
      model: typeof value.model === 'string' ? value.model : '',
      created_at: numberOr(value.created_at, 0),
      completed_at: numberOr(value.completed_at, null),
      error: isErrorObject(value.error) ? { code: String(value.error.code ?? 'error'), message: String(value.error.message ?? '') } : null,
      expires_at: numberOr(value.expires_at, null),
      progress: typeof value.progress === 'number' ? value.progress : undefined,
      prompt: stringOr(value.prompt),
      remixed_from_video_id: stringOr(value.remixed_from_video_id),
      seconds: typeof value.seconds === 'number' ? String(value.seconds) : stringOr(value.seconds),
      size: stringOr(value.size),
    },
    extra,
  );
}

/** `detail=true` (or `1`) on `GET /v1/videos/{id}`. */
export function wantsVideoDetail(query: Record<string, string>): boolean {
  const flag = query.detail?.toLowerCase();
  return flag === 'true' || flag === '1';
}

/** The video as answered: with `detail` (the upstream's own record) only when asked for. */
export function withVideoDetail(video: VideoObject, detail: unknown, wanted: boolean): VideoObject {
  return wanted ? { ...video, detail } : video;
}
