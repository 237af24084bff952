import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import nock from 'nock';
import { createSqliteStore } from '../../../core/store/sqlite-store';
import { fixtureJson } from '../../../test/helpers/fixtures';
import { TINY_PNG } from '../../../test/helpers/multipart';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

const UPSTREAM = 'http://openai-tasks.upstream.test';
const PLATFORM = { openai: { plugin: 'openai', baseUrl: UPSTREAM, credentials: [{ apiKey: 'sk-upstream-tasks-key-000000000001' }] } };
const AUTH = { authorization: `Bearer ${TEST_LICENSE}` };

interface Task {
  task_id: string;
  status: string;
  created_at: number;
  completed_at: number | null;
  result: { created: number; data: Array<{ b64_json?: string; url?: string }> } | null;
  error: { code: string; message: string } | null;
}

async function submit(gw: RunningGateway, body: Record<string, unknown>, query = ''): Promise<Response> {
  return fetch(`${gw.url}/openai/v1/images/generations${query}`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function getTask(gw: RunningGateway, id: string): Promise<{ status: number; task: Task }> {
  const res = await fetch(`${gw.url}/openai/v1/images/${id}`, { headers: AUTH });
  return { status: res.status, task: (await res.json()) as Task };
}

async function until(gw: RunningGateway, id: string, status: string): Promise<Task> {
  for (let i = 0; i < 300; i += 1) {
    const { task } = await getTask(gw, id);
    if (task.status === status) return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${id} never reached ${status}`);
}

describe('openai plugin: asynchronous image tasks', () => {
  describe('lifecycle', () => {
    let gw: RunningGateway;
    before(async () => {
      gw = await startGateway(PLATFORM);
    });
    after(() => gw.close());

    it('answers 202 at once and completes in the background (async in the body)', async () => {
      const upstream = nock(UPSTREAM).post('/v1/images/generations', (body: Record<string, unknown>) => !('async' in body)).delay(600).reply(200, fixtureJson('openai-images/response-b64.json'));
      const started = Date.now();
      const res = await submit(gw, { model: 'gpt-image-1', prompt: 'x', async: true });
      expect(res.status).to.equal(202);
      const accepted = (await res.json()) as { task_id: string; status: string };
      expect(Object.keys(accepted)).to.deep.equal(['task_id', 'status']);
      expect(accepted.status).to.equal('queued');
      expect(Date.now() - started).to.be.below(500);

      const pending = await getTask(gw, accepted.task_id);
      expect(pending.status).to.equal(200);
      expect(['queued', 'in_progress']).to.include(pending.task.status);
      expect(pending.task.result).to.equal(null);

      const done = await until(gw, accepted.task_id, 'completed');
      expect(done.result?.data[0].b64_json).to.equal(`data:image/png;base64,${TINY_PNG.toString('base64')}`);
      expect(done.error).to.equal(null);
      expect(done.completed_at).to.be.a('number');
      expect(upstream.isDone()).to.equal(true);
    });

    it('takes async=true from the query, and from a multipart field', async () => {
      nock(UPSTREAM).post('/v1/images/generations').times(2).reply(200, fixtureJson('openai-images/response-b64.json'));
      const byQuery = await submit(gw, { model: 'gpt-image-1', prompt: 'x' }, '?async=true');
      expect(byQuery.status).to.equal(202);
      const form = new FormData();
      form.append('model', 'gpt-image-1');
      form.append('prompt', 'x');
      form.append('async', 'true');
      const byForm = await fetch(`${gw.url}/openai/v1/images/generations`, { method: 'POST', headers: AUTH, body: form });
      expect(byForm.status).to.equal(202);
      await until(gw, ((await byForm.json()) as Task).task_id, 'completed');
    });

    it('keeps url answers of a task fetchable', async () => {
      nock(UPSTREAM).post('/v1/images/generations').reply(200, fixtureJson('openai-images/response-b64.json'));
      const { task_id } = (await (await submit(gw, { model: 'gpt-image-1', prompt: 'x', response_format: 'url' }, '?async=true')).json()) as Task;
      const done = await until(gw, task_id, 'completed');
      const file = await fetch(done.result?.data[0].url ?? '');
      expect(Buffer.from(await file.arrayBuffer()).equals(TINY_PNG)).to.equal(true);
      // It lives as long as the task is readable (24 h), not the hour a link of a direct answer lives.
      const maxAge = Number(/max-age=(\d+)/.exec(file.headers.get('cache-control') ?? '')?.[1]);
      expect(maxAge).to.be.above(23 * 3600);
    });

    it('records an upstream refusal as a failed task with its code and message', async () => {
      nock(UPSTREAM).post('/v1/images/generations').reply(400, { error: { message: 'Your request was rejected by the safety system.', type: 'invalid_request_error', param: null, code: 'moderation_blocked' } });
      const { task_id } = (await (await submit(gw, { model: 'gpt-image-1', prompt: 'x', async: true })).json()) as Task;
      const failed = await until(gw, task_id, 'failed');
      expect(failed.error).to.deep.equal({ code: 'moderation_blocked', message: 'Your request was rejected by the safety system.' });
      expect(failed.result).to.equal(null);
    });

    it('validates before accepting: an enum violation is a 400, not a task', async () => {
      const res = await submit(gw, { model: 'gpt-image-1', prompt: 'x', quality: 'max', async: true });
      expect(res.status).to.equal(400);
    });

    it('answers 404 in the OpenAI shape for an unknown task', async () => {
      const { status, task } = await getTask(gw, 'task_00000000000000000000000000000000');
      expect(status).to.equal(404);
      expect((task as unknown as { error: { message: string } }).error.message).to.include('task_00000000000000000000000000000000');
    });

    it('refuses async together with stream', async () => {
      const res = await submit(gw, { model: 'gpt-image-1', prompt: 'x', stream: true, async: true });
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { error: { param: string } }).error.param).to.equal('async');
    });
  });

  describe('across a restart (sqlite store)', () => {
    let dir: string;
    let file: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'gw-image-tasks-'));
      file = path.join(dir, 'gateway.db');
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('a task running when the first gateway closes is reported failed, with the reason, by the second', async () => {
      nock(UPSTREAM).post('/v1/images/generations').delay(5000).reply(200, fixtureJson('openai-images/response-b64.json'));
      const first = await startGateway(PLATFORM, { store: { driver: 'sqlite', path: file } });
      const { task_id } = (await (await submit(first, { model: 'gpt-image-1', prompt: 'x', async: true })).json()) as Task;
      await until(first, task_id, 'in_progress');
      await first.close();

      const second = await startGateway(PLATFORM, { store: { driver: 'sqlite', path: file } });
      try {
        const { status, task } = await getTask(second, task_id);
        expect(status).to.equal(200);
        expect(task.status).to.equal('failed');
        expect(task.error?.code).to.match(/^gateway_(shutdown|restarted)$/);
        expect(task.error?.message).to.match(/submit it again/);
        expect(task.completed_at).to.be.a('number');
      } finally {
        await second.close();
      }
    });

    it('a task a crashed process left in progress is marked failed at the next start-up', async () => {
      const crashed = createSqliteStore(file);
      await crashed.set('image-tasks:openai', 'task_left_behind', { task_id: 'task_left_behind', status: 'in_progress', created_at: 1700000000, completed_at: null, result: null, error: null });
      await crashed.close();

      const gw = await startGateway(PLATFORM, { store: { driver: 'sqlite', path: file } });
      try {
        const { task } = await getTask(gw, 'task_left_behind');
        expect(task).to.deep.include({ task_id: 'task_left_behind', status: 'failed', created_at: 1700000000, result: null });
        expect(task.error?.code).to.equal('gateway_restarted');
        expect(task.error?.message).to.include('stopped while this task was in progress');
      } finally {
        await gw.close();
      }
    });
  });
});
