import type { ImageResult } from '../media-api/image-result';
import type { ReadOptions, Store } from '../store/store';

export type ImageTaskStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

/** DECISIONS §7: what `GET /{platform}/v1/images/{task_id}` answers. Times are Unix seconds. */
export interface ImageTask {
  task_id: string;
  status: ImageTaskStatus;
  created_at: number;
  completed_at: number | null;
  result: ImageResult | null;
  error: { code: string; message: string } | null;
  /** The license that submitted it (ownerOf); stored, never answered. */
  owner?: string;
}

export interface ImageTaskStore {
  /** Writes a task; a completed one's result first, so that no record says completed without its result. */
  save(task: ImageTask): Promise<void>;
  /** The task with its result; undefined when unknown, expired or unreadable. */
  get(taskId: string): Promise<ImageTask | undefined>;
  /** The stored status alone (no result read); undefined as for get. */
  status(taskId: string): Promise<ImageTaskStatus | undefined>;
  /** Every task record, without the results kept apart; `unreadable`: the ids whose record cannot be read. */
  scan(): Promise<{ tasks: ImageTask[]; unreadable: string[] }>;
}

/** A result outlives its record by this much: it is written first, and must not expire first. */
const RESULT_TTL_MARGIN_MS = 60_000;
const STATUSES: ReadonlySet<string> = new Set<ImageTaskStatus>(['queued', 'in_progress', 'completed', 'failed']);

/**
 * Image tasks in the store: a small record per task in `image-tasks:<platform>`, a completed task's result (megabytes
 * of base64) in `image-task-results:<platform>`. Start-up scans the records for unfinished tasks, and must not parse
 * every retained result to do so. Records of older builds still hold their result; they are read as they are.
 */
export function createImageTaskStore(store: Store, platform: string, ttlMs: number, onUnreadable?: ReadOptions['onUnreadable']): ImageTaskStore {
  const records = `image-tasks:${platform}`;
  const results = `image-task-results:${platform}`;
  /** A record or result that cannot be read (a damaged file) reads as none: the task is unknown, not a 500. */
  const reading: ReadOptions = { onUnreadable: onUnreadable ?? (() => undefined) };

  async function record(taskId: string): Promise<ImageTask | undefined> {
    return readTask(taskId, await store.get<unknown>(records, taskId, reading));
  }

  return {
    async save(task) {
      if (task.result !== null) await store.set(results, task.task_id, task.result, { ttlMs: ttlMs + RESULT_TTL_MARGIN_MS });
      await store.set(records, task.task_id, { ...task, result: null }, { ttlMs });
    },

    async get(taskId) {
      const task = await record(taskId);
      if (task?.status !== 'completed' || task.result !== null) return task;
      const result = await store.get<ImageResult>(results, taskId, reading);
      return result === undefined ? undefined : { ...task, result };
    },

    async status(taskId) {
      return (await record(taskId))?.status;
    },

    async scan() {
      const unreadable: string[] = [];
      const tasks: ImageTask[] = [];
      for (const { key, value } of await store.list<unknown>(records, { onUnreadable: (key) => unreadable.push(key) })) {
        const task = readTask(key, value);
        if (task) tasks.push(task);
        else unreadable.push(key);
      }
      return { tasks, unreadable };
    },
  };
}

/**
 * A stored record as far as it can be trusted: written by this code, but a damaged file or a hand edit must cost that
 * task, not the start-up. Undefined without a known status and a creation time; other fields of the wrong type read
 * as null.
 */
function readTask(taskId: string, value: unknown): ImageTask | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { status, created_at, completed_at, result, error, owner } = value as Record<string, unknown>;
  if (typeof status !== 'string' || !STATUSES.has(status) || typeof created_at !== 'number') return undefined;
  // An owner that is no license id names nobody: the task is unreadable, not anybody's (see isOwnRecord).
  if (owner !== undefined && typeof owner !== 'string') return undefined;
  return {
    task_id: taskId,
    status: status as ImageTaskStatus,
    created_at,
    completed_at: typeof completed_at === 'number' ? completed_at : null,
    result: typeof result === 'object' && result !== null ? (result as ImageResult) : null,
    error: isTaskError(error) ? { code: error.code, message: error.message } : null,
    ...(typeof owner === 'string' ? { owner } : {}),
  };
}

function isTaskError(value: unknown): value is { code: string; message: string } {
  const error = value as { code?: unknown; message?: unknown } | null;
  return typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string';
}
