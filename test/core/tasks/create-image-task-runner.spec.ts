import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { GatewayError, isGatewayError } from '../../../core/errors/gateway-error';
import { createLogger } from '../../../core/logging';
import type { ImageResult } from '../../../core/media-api/image-result';
import { createMemoryStore } from '../../../core/store/memory-store';
import { createSqliteStore } from '../../../core/store/sqlite-store';
import type { ReadOptions, Store } from '../../../core/store/store';
import { createImageTaskRunner, type ImageTask, type ImageTaskRunner } from '../../../core/tasks/create-image-task-runner';

const log = createLogger({ level: 'error', format: 'json', secrets: () => [] });
log.silent = true;
const RESULT: ImageResult = { created: 1, data: [{ b64_json: 'data:image/png;base64,AAAA' }] };

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

async function until(runner: ImageTaskRunner, id: string, status: ImageTask['status']): Promise<ImageTask> {
  for (let i = 0; i < 200; i += 1) {
    const task = await runner.get(id);
    if (task?.status === status) return task;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`task ${id} never reached ${status}`);
}

describe('createImageTaskRunner', () => {
  it('runs a task in the background: queued, in progress, then completed with its result', async () => {
    const runner = createImageTaskRunner({ store: createMemoryStore(), platform: 'p', log });
    const gate = deferred<ImageResult>();
    const accepted = await runner.submit(() => gate.promise);
    expect(accepted.status).to.equal('queued');
    expect(accepted.task_id).to.match(/^task_[0-9a-f]{32}$/);
    const running = await until(runner, accepted.task_id, 'in_progress');
    expect(running).to.deep.include({ completed_at: null, result: null, error: null });
    gate.resolve(RESULT);
    const done = await until(runner, accepted.task_id, 'completed');
    expect(done.result).to.deep.equal(RESULT);
    expect(done.created_at).to.be.a('number');
    expect(done.completed_at).to.be.at.least(done.created_at);
    expect(Object.keys(done)).to.deep.equal(['task_id', 'status', 'created_at', 'completed_at', 'result', 'error']);
  });

  it('records a failed task with the error code and message', async () => {
    const runner = createImageTaskRunner({ store: createMemoryStore(), platform: 'p', log });
    const { task_id } = await runner.submit(async () => {
      throw new GatewayError('GW_UPSTREAM_ERROR', 'Your request was rejected by the safety system.', { status: 400, upstreamCode: 'moderation_blocked' });
    });
    const failed = await until(runner, task_id, 'failed');
    expect(failed.error).to.deep.equal({ code: 'moderation_blocked', message: 'Your request was rejected by the safety system.' });
    expect(failed.result).to.equal(null);
  });

  it('never shows internal error text', async () => {
    const runner = createImageTaskRunner({ store: createMemoryStore(), platform: 'p', log });
    const { task_id } = await runner.submit(async () => {
      throw new Error('secret internal path /srv/x.ts');
    });
    expect((await until(runner, task_id, 'failed')).error).to.deep.equal({ code: 'gw_internal', message: 'internal gateway error' });
  });

  it('answers a finished task the store refused from memory, and writes it once the store takes it', async () => {
    const store = createMemoryStore();
    let failing = false;
    const flaky = { ...store, set: (...args: Parameters<typeof store.set>) => (failing ? Promise.reject(new Error('database is locked')) : store.set(...args)) };
    const runner = createImageTaskRunner({ store: flaky, platform: 'p', log });
    const gate = deferred<ImageResult>();
    const { task_id } = await runner.submit(() => gate.promise);
    failing = true;
    gate.resolve(RESULT);
    expect(await until(runner, task_id, 'completed')).to.include({ status: 'completed' });
    expect(await store.get<ImageTask>('image-tasks:p', task_id)).to.include({ status: 'in_progress' });
    failing = false;
    await runner.close();
    const restarted = createImageTaskRunner({ store, platform: 'p', log });
    expect(await restarted.recover()).to.equal(0);
    expect(await restarted.get(task_id)).to.deep.include({ status: 'completed', result: RESULT });
  });

  it('keeps tasks of different platforms apart', async () => {
    const store = createMemoryStore();
    const a = createImageTaskRunner({ store, platform: 'a', log });
    const b = createImageTaskRunner({ store, platform: 'b', log });
    const { task_id } = await a.submit(async () => RESULT);
    await until(a, task_id, 'completed');
    expect(await b.get(task_id)).to.equal(undefined);
  });

  it('forgets a task after its retention', async () => {
    let clock = 1_000_000;
    const runner = createImageTaskRunner({ store: createMemoryStore(() => clock), platform: 'p', log, retentionMs: 60_000 });
    const { task_id } = await runner.submit(async () => RESULT);
    await until(runner, task_id, 'completed');
    clock += 61_000;
    expect(await runner.get(task_id)).to.equal(undefined);
  });

  it('on close aborts running work, records it failed with the reason, and refuses new tasks', async () => {
    const store = createMemoryStore();
    const runner = createImageTaskRunner({ store, platform: 'p', log });
    let seen: AbortSignal | undefined;
    const { task_id } = await runner.submit(
      (signal) =>
        new Promise<ImageResult>((_resolve, reject) => {
          seen = signal;
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    );
    await until(runner, task_id, 'in_progress');
    expect(seen?.aborted).to.equal(false);
    await runner.close();
    expect(seen?.aborted).to.equal(true);
    const task = await runner.get(task_id);
    expect(task?.status).to.equal('failed');
    expect(task?.error?.code).to.equal('gateway_shutdown');
    const refused = await runner.submit(async () => RESULT).catch((e: unknown) => e);
    expect(isGatewayError(refused) && refused.status).to.equal(503);
  });

  it('on close with a grace period lets a task finish within it, and records one still running after it as cut', async () => {
    const runner = createImageTaskRunner({ store: createMemoryStore(), platform: 'p', log });
    const quick = deferred<ImageResult>();
    const { task_id: quickId } = await runner.submit(() => quick.promise);
    const { task_id: slowId } = await runner.submit((signal) => new Promise<ImageResult>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))));
    await until(runner, slowId, 'in_progress');
    const grace = deferred<void>();
    const closing = runner.close({ graceOver: grace.promise });
    // New tasks are refused at once; the running ones go on.
    const refused = await runner.submit(async () => RESULT).catch((e: unknown) => e);
    expect(isGatewayError(refused) && refused.status).to.equal(503);
    quick.resolve(RESULT);
    await until(runner, quickId, 'completed');
    grace.resolve();
    await closing;
    expect((await runner.get(quickId))?.result).to.deep.equal(RESULT);
    expect((await runner.get(slowId))?.error?.code).to.equal('gateway_shutdown');
  });

  it('records a task whose upstream call the shutdown cut (end of the grace period, before close) as cut by the shutdown', async () => {
    const runner = createImageTaskRunner({ store: createMemoryStore(), platform: 'p', log });
    const { task_id } = await runner.submit(async () => {
      throw new GatewayError('GW_SHUTTING_DOWN', 'the gateway is shutting down');
    });
    const task = await until(runner, task_id, 'failed');
    expect(task.error?.code).to.equal('gateway_shutdown');
  });

  describe('after a crash (sqlite file)', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'gw-tasks-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('marks the tasks a stopped process left queued or in progress failed, and keeps finished ones', async () => {
      const file = path.join(dir, 'gateway.db');
      const first = createSqliteStore(file);
      const crashed = createImageTaskRunner({ store: first, platform: 'p', log });
      const done = await crashed.submit(async () => RESULT);
      await until(crashed, done.task_id, 'completed');
      const hanging = await crashed.submit(() => new Promise<ImageResult>(() => undefined));
      await until(crashed, hanging.task_id, 'in_progress');
      await first.set('image-tasks:p', 'task_queued', { task_id: 'task_queued', status: 'queued', created_at: 1, completed_at: null, result: null, error: null });
      // The process dies: no close(), the store file is all that is left.
      await first.close();

      const second = createSqliteStore(file);
      const restarted = createImageTaskRunner({ store: second, platform: 'p', log });
      expect(await restarted.recover()).to.equal(2);
      const lost = await restarted.get(hanging.task_id);
      expect(lost?.status).to.equal('failed');
      expect(lost?.error?.code).to.equal('gateway_restarted');
      expect(lost?.error?.message).to.include('in progress');
      expect(lost?.completed_at).to.be.a('number');
      expect((await restarted.get('task_queued'))?.error?.message).to.include('queued');
      expect((await restarted.get(done.task_id))?.status).to.equal('completed');
      expect(await restarted.recover()).to.equal(0);
      await second.close();
    });
  });
});

describe('createImageTaskRunner: the store across restarts', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gw-tasks-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps a second process's start-up away from running tasks: its store fails to open, before any recovery", async () => {
    const file = path.join(dir, 'gateway.db');
    const store = createSqliteStore(file);
    const runner = createImageTaskRunner({ store, platform: 'p', log });
    const gate = deferred<ImageResult>();
    const { task_id } = await runner.submit(() => gate.promise);
    await until(runner, task_id, 'in_progress');
    expect(() => createSqliteStore(file, { lockWaitMs: 100 })).to.throw(/another gateway process uses this store file/);
    gate.resolve(RESULT);
    await runner.close();
    await store.close();

    const next = createSqliteStore(file);
    try {
      const restarted = createImageTaskRunner({ store: next, platform: 'p', log });
      expect(await restarted.recover()).to.equal(0);
      expect(await restarted.get(task_id)).to.deep.include({ status: 'completed', result: RESULT });
    } finally {
      await next.close();
    }
  });

  it('does not overwrite a record already final in the store when the work ends', async () => {
    const store = createMemoryStore();
    const runner = createImageTaskRunner({ store, platform: 'p', log });
    const gate = deferred<ImageResult>();
    const { task_id } = await runner.submit(() => gate.promise);
    const running = await until(runner, task_id, 'in_progress');
    const failed: ImageTask = { ...running, status: 'failed', completed_at: 2, error: { code: 'gateway_restarted', message: 'submit it again' } };
    // What another process's start-up wrote, and its client may already have been answered.
    await store.set('image-tasks:p', task_id, failed);
    gate.resolve(RESULT);
    await runner.close();
    expect(await createImageTaskRunner({ store, platform: 'p', log }).get(task_id)).to.deep.equal(failed);
  });

  it('at start-up reports a record it cannot read (not JSON, null, unknown status) failed with the reason, and recovers the rest', async () => {
    const file = path.join(dir, 'gateway.db');
    const seed = createSqliteStore(file);
    const queued: ImageTask = { task_id: 'task_queued', status: 'queued', created_at: 1, completed_at: null, result: null, error: null };
    const done: ImageTask = { task_id: 'task_done', status: 'completed', created_at: 1, completed_at: 2, result: RESULT, error: null };
    for (const id of ['task_not_json', 'task_null', 'task_bogus']) await seed.set('image-tasks:p', id, queued);
    await seed.set('image-tasks:p', queued.task_id, queued);
    await seed.set('image-tasks:p', done.task_id, done);
    await seed.close();
    const db = new Database(file);
    const setRow = db.prepare<[string, string]>("UPDATE entries SET value = ? WHERE namespace = 'image-tasks:p' AND key = ?");
    setRow.run('{"task_id":', 'task_not_json');
    setRow.run('null', 'task_null');
    setRow.run('{"task_id":"task_bogus","status":"bogus","created_at":1}', 'task_bogus');
    db.close();

    const store = createSqliteStore(file);
    try {
      const runner = createImageTaskRunner({ store, platform: 'p', log });
      expect(await runner.recover()).to.equal(1);
      for (const id of ['task_not_json', 'task_null', 'task_bogus']) {
        const task = await runner.get(id);
        expect(task, id).to.deep.include({ task_id: id, status: 'failed', result: null });
        expect(task?.error?.code, id).to.equal('task_record_unreadable');
        expect(task?.error?.message, id).to.include('submit it again');
      }
      expect((await runner.get('task_queued'))?.error?.code).to.equal('gateway_restarted');
      expect(await runner.get('task_done')).to.deep.equal(done);
      expect(await createImageTaskRunner({ store, platform: 'p', log }).recover()).to.equal(0);
    } finally {
      await store.close();
    }
  });

  it('finds the unfinished tasks at start-up without reading a finished result', async () => {
    const big: ImageResult = { created: 1, data: [{ b64_json: `data:image/png;base64,${'QUJD'.repeat(50_000)}` }] };
    const store = createMemoryStore();
    const before = createImageTaskRunner({ store, platform: 'p', log });
    const done = await before.submit(async () => big);
    await until(before, done.task_id, 'completed');
    const left = await before.submit(() => new Promise<ImageResult>(() => undefined));
    await until(before, left.task_id, 'in_progress');

    // The restarted process, on the same store (the first one's work is never closed: it crashed).
    const read: string[] = [];
    const watched: Store = {
      ...store,
      get: async <T>(namespace: string, key: string) => {
        const value = await store.get<T>(namespace, key);
        read.push(JSON.stringify(value) ?? '');
        return value;
      },
      list: async <T>(namespace: string, options?: ReadOptions) => {
        const listed = await store.list<T>(namespace, options);
        read.push(JSON.stringify(listed));
        return listed;
      },
    };
    const restarted = createImageTaskRunner({ store: watched, platform: 'p', log });
    expect(await restarted.recover()).to.equal(1);
    expect(read.join('').length).to.be.below(10_000);
    expect((await restarted.get(left.task_id))?.error?.code).to.equal('gateway_restarted');
    expect(await restarted.get(done.task_id)).to.deep.include({ status: 'completed', result: big });
  });

  it('serves a completed task an earlier build stored with its result inline', async () => {
    const store = createMemoryStore();
    const done: ImageTask = { task_id: 'task_old', status: 'completed', created_at: 1, completed_at: 2, result: RESULT, error: null };
    await store.set('image-tasks:p', done.task_id, done);
    const runner = createImageTaskRunner({ store, platform: 'p', log });
    expect(await runner.recover()).to.equal(0);
    expect(await runner.get(done.task_id)).to.deep.equal(done);
  });
});
