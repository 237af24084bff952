import { expect } from 'chai';
import { createImageTaskStore } from '../../../core/tasks/image-task-store';
import { createCorruptStore } from '../../helpers/corrupt-store';

describe('createImageTaskStore', () => {
  const created_at = 1_700_000_000;
  const completed = { status: 'completed', created_at, completed_at: created_at + 5, result: null, error: null };

  it('reads a task whose record or result cannot be read back (a damaged file) as unknown, reporting it, where a get failed', async () => {
    const damaged = await createCorruptStore(
      [
        ['image-tasks:p', 'task_bad_record'],
        ['image-task-results:p', 'task_bad_result'],
      ],
      [
        ['image-tasks:p', 'task_bad_result', completed],
        ['image-tasks:p', 'task_ok', completed],
        ['image-task-results:p', 'task_ok', { created: created_at, data: [{ url: 'https://x.example/a.png' }] }],
      ],
    );
    try {
      const unreadable: string[] = [];
      const tasks = createImageTaskStore(damaged.store, 'p', 60_000, (key) => unreadable.push(key));
      expect(await tasks.get('task_bad_record')).to.equal(undefined);
      expect(await tasks.status('task_bad_record')).to.equal(undefined);
      expect(await tasks.get('task_bad_result')).to.equal(undefined);
      expect((await tasks.get('task_ok'))?.result).to.deep.equal({ created: created_at, data: [{ url: 'https://x.example/a.png' }] });
      expect(unreadable).to.deep.equal(['task_bad_record', 'task_bad_record', 'task_bad_result']);
    } finally {
      await damaged.remove();
    }
  });

  it('reads a record whose owner is no license id (a hand edit) as unreadable, not as a task any license may read', async () => {
    const damaged = await createCorruptStore([], [['image-tasks:p', 'task_odd_owner', { status: 'queued', created_at, owner: 42 }]]);
    try {
      const tasks = createImageTaskStore(damaged.store, 'p', 60_000);
      expect(await tasks.get('task_odd_owner')).to.equal(undefined);
    } finally {
      await damaged.remove();
    }
  });
});
