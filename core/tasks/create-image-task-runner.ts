import { randomBytes } from 'node:crypto';
import { GatewayError, isGatewayError } from '../errors/gateway-error';
import type { SecretMasker } from '../errors/mask-gateway-error';
import { maskSecretsIn } from '../errors/mask-secret';
import type { CustomHandler, CustomResult, RequestContext, ShutdownContext } from '../hooks/plugin-api';
import type { Logger } from '../logging';
import type { ImageResult } from '../media-api/image-result';
import type { Store } from '../store/store';
import { createImageTaskStore, type ImageTask } from './image-task-store';
import { isOwnRecord, ownerOf } from './task-owner';

export type { ImageTask, ImageTaskStatus } from './image-task-store';

/** The work of one task. `signal` aborts when the gateway shuts down, never when the submitting client leaves. */
export type ImageTaskWork = (signal: AbortSignal) => Promise<ImageResult>;

export interface ImageTaskRunner {
  /** How long a task stays readable after its last change: what its result (an image link) must outlive. */
  readonly retentionMs: number;
  /**
   * Stores the task as queued (with `owner`, the license that submitted it), starts the work in the background and
   * answers the 202 body.
   */
  submit(work: ImageTaskWork, owner?: string): Promise<{ task_id: string; status: 'queued' }>;
  get(taskId: string): Promise<ImageTask | undefined>;
  /**
   * At start-up: tasks a stopped process left queued or in progress become failed, with the reason; so do those whose
   * record cannot be read. Answers how many unfinished tasks it failed.
   */
  recover(): Promise<number>;
  /**
   * Refuses later submits, lets the running tasks finish until `shutdown.graceOver` (none given: not at all), then
   * aborts those still running and records them as failed (`gateway_shutdown`).
   */
  close(shutdown?: ShutdownContext): Promise<void>;
}

export interface ImageTaskRunnerOptions {
  store: Store;
  /** The platform key: tasks live in the namespaces `image-tasks:<platform>` and `image-task-results:<platform>`. */
  platform: string;
  log: Logger;
  /** How long a task stays readable after its last change (default 24 h). */
  retentionMs?: number;
  /**
   * Masks secrets in a failed task's error, which is stored and answered later, past the error middleware's masking
   * (the gateway's: GatewaySettings.maskSecrets). Default: the well-known key shapes only.
   */
  mask?: SecretMasker;
}

const DEFAULT_RETENTION_MS = 24 * 3600_000;
/** How often a finished task the store refused is offered to it again. */
const SAVE_RETRY_MS = 5_000;

/** Codes in a failed task's `error` that the gateway itself sets. */
export const TASK_ERROR = {
  restarted: 'gateway_restarted',
  shutdown: 'gateway_shutdown',
  unreadable: 'task_record_unreadable',
} as const;

/**
 * Asynchronous image tasks (`async=true`, DECISIONS §7), kept in the store so a restart never loses one silently.
 * `recover` fails every unfinished task it finds: right only because one process uses a store (the sqlite store
 * refuses a second one at open).
 */
export function createImageTaskRunner(options: ImageTaskRunnerOptions): ImageTaskRunner {
  const { store, platform, log } = options;
  const mask = options.mask ?? ((text: string) => maskSecretsIn(text));
  const retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
  const tasks = createImageTaskStore(store, platform, retentionMs, (taskId, error) => log.warn('image task entry unreadable; read as unknown', { platform, taskId, error: error.message }));
  const controller = new AbortController();
  const running = new Set<Promise<void>>();
  let closed = false;

  /** Finished tasks the store could not take yet (a full disk, an I/O error): answered from here, written later. */
  const unsaved = new Map<string, ImageTask>();
  let retryTimer: NodeJS.Timeout | undefined;

  function notSaved(task: ImageTask, error: unknown): void {
    log.error('image task state not saved; retrying', { taskId: task.task_id, status: task.status, error: errorMessage(error) });
  }

  /** A finished task's record: its result must not be lost because the store failed for a moment. */
  async function saveFinished(task: ImageTask): Promise<void> {
    try {
      // Behind the store's one-process hold: a final record this run did not write (another process's start-up failed
      // the task) may have been answered already, so it stands rather than the answer changing under the client. A
      // record that cannot be read is replaced.
      const stored = await tasks.status(task.task_id).catch(() => undefined);
      if (stored === 'completed' || stored === 'failed') {
        log.warn('image task already finished in the store; its record is kept', { taskId: task.task_id, stored, outcome: task.status });
      } else {
        await tasks.save(task);
      }
      unsaved.delete(task.task_id);
    } catch (error) {
      notSaved(task, error);
      unsaved.set(task.task_id, task);
      // After close the store is closing: recover() at the next start-up reports what stayed unsaved.
      if (!closed) retryTimer ??= setTimeout(() => void saveUnsaved(), SAVE_RETRY_MS).unref();
    }
  }

  async function saveUnsaved(): Promise<void> {
    retryTimer = undefined;
    for (const task of [...unsaved.values()]) await saveFinished(task);
  }

  async function run(task: ImageTask, work: ImageTaskWork): Promise<void> {
    let finished: ImageTask;
    try {
      // Queued or in progress, a stopped process's recover() reports it the same: the work does not wait for this
      // write, and the finished record, written later, wins over it.
      void tasks.save({ ...task, status: 'in_progress' }).catch((error: unknown) => notSaved(task, error));
      const result = await work(controller.signal);
      finished = { ...task, status: 'completed', completed_at: now(), result };
    } catch (error) {
      // Cut by the shutdown: by this runner's close, or, when client requests held the server open to the end of
      // the grace period, by the upstream calls being cut first (GW_SHUTTING_DOWN).
      const shutDown = controller.signal.aborted || (isGatewayError(error) && error.code === 'GW_SHUTTING_DOWN');
      const failure = shutDown ? shutdownError() : describeFailure(error, mask);
      if (!shutDown) log.warn('image task failed', { taskId: task.task_id, code: failure.code, reason: failure.message });
      finished = { ...task, status: 'failed', completed_at: now(), error: failure };
    }
    await saveFinished(finished);
  }

  return {
    retentionMs,
    async submit(work, owner) {
      if (closed) throw new GatewayError('GW_UPSTREAM_OVERLOADED', 'the gateway is shutting down; submit the task again shortly', { status: 503 });
      const task: ImageTask = { task_id: `task_${randomBytes(16).toString('hex')}`, status: 'queued', created_at: now(), completed_at: null, result: null, error: null, ...(owner === undefined ? {} : { owner }) };
      await tasks.save(task);
      const promise = run(task, work).finally(() => running.delete(promise));
      running.add(promise);
      return { task_id: task.task_id, status: 'queued' };
    },

    async get(taskId) {
      return unsaved.get(taskId) ?? tasks.get(taskId);
    },

    async recover() {
      const { tasks: stored, unreadable } = await tasks.scan();
      let count = 0;
      for (const task of stored) {
        if (task.status !== 'queued' && task.status !== 'in_progress') continue;
        await tasks.save({
          ...task,
          status: 'failed',
          completed_at: now(),
          error: { code: TASK_ERROR.restarted, message: `the gateway stopped while this task was ${task.status.replace('_', ' ')}; it did not finish, submit it again` },
        });
        count += 1;
      }
      if (count > 0) log.warn('unfinished image tasks marked failed', { count });
      // Its client polls this id: a failed task with the reason tells it to submit again, where dropping the record
      // would answer 404, as for an id the gateway never gave out. The rewrite also stops the next start-up meeting it.
      for (const taskId of unreadable) {
        log.warn('image task record unreadable; marked failed', { platform, taskId });
        await tasks.save({ task_id: taskId, status: 'failed', created_at: now(), completed_at: now(), result: null, error: { code: TASK_ERROR.unreadable, message: "the gateway could not read this task's stored record; its outcome is unknown, submit it again" } });
      }
      return count;
    },

    async close(shutdown) {
      if (closed) return;
      closed = true;
      // A task that ends within the grace period is saved as it ended: only the abort below makes it a shutdown's.
      if (shutdown && running.size > 0) await Promise.race([Promise.allSettled([...running]), shutdown.graceOver]);
      controller.abort(new GatewayError('GW_CLIENT_CLOSED', 'the gateway shut down'));
      await Promise.all([...running]);
      // A last try; what the store still refuses stays queued or in progress there, and recover() reports it failed.
      clearTimeout(retryTimer);
      await saveUnsaved();
    },
  };
}

/** `POST` with async: 202 and `{task_id, status: "queued"}`; the task answers only the license of `ctx`. */
export async function acceptImageTask(runner: ImageTaskRunner, work: ImageTaskWork, ctx: Pick<RequestContext, 'principal'>): Promise<CustomResult> {
  return { status: 202, json: await runner.submit(work, ownerOf(ctx)) };
}

/** `GET /{platform}/v1/images/{task_id}`; an unknown (or expired) id, or another license's task, is a 404. */
export function createImageTaskGetHandler(runner: ImageTaskRunner): CustomHandler {
  return async (_request, ctx) => {
    const taskId = ctx.params.taskId ?? '';
    const task = await runner.get(taskId);
    if (!task || !isOwnRecord(ctx, task)) throw new GatewayError('GW_NOT_FOUND', `no image task "${taskId}" on platform "${ctx.platform}"`, { param: 'task_id' });
    const { owner: _owner, ...answer } = task;
    return { status: 200, json: answer };
  };
}

/**
 * The request's context for work that outlives the request: same platform, headers and services, but upstream
 * calls follow `signal` (the task's) instead of the client's connection.
 */
export function detachContext(ctx: RequestContext, signal: AbortSignal): RequestContext {
  return { ...ctx, signal, log: ctx.log };
}

function describeFailure(error: unknown, mask: SecretMasker): { code: string; message: string } {
  if (isGatewayError(error)) return { code: error.upstreamCode ?? error.code.toLowerCase(), message: mask(error.message) };
  return { code: 'gw_internal', message: 'internal gateway error' };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function shutdownError(): { code: string; message: string } {
  return { code: TASK_ERROR.shutdown, message: 'the gateway shut down while this task was running; it did not finish, submit it again' };
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}
