import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { createStore } from '../../../core/store/create-store';
import type { StoreConfig } from '../../../core/store/store';

describe('createStore', () => {
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-create-store-'));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('memory: a store that forgets on close', async () => {
    const store = createStore({ driver: 'memory' });
    await store.set('ns', 'k', { v: 1 });
    expect(await store.get('ns', 'k')).to.deep.equal({ v: 1 });
    await store.close();
    const next = createStore({ driver: 'memory' });
    expect(await next.get('ns', 'k')).to.equal(undefined);
    await next.close();
  });

  it('sqlite: a store in the file at path, found again after a restart', async () => {
    const file = path.join(dir, 'data', 'gateway.db');
    const store = createStore({ driver: 'sqlite', path: file });
    await store.set('ns', 'k', { v: 1 });
    await store.close();
    expect(fs.existsSync(file)).to.equal(true);
    const reopened = createStore({ driver: 'sqlite', path: file });
    expect(await reopened.get('ns', 'k')).to.deep.equal({ v: 1 });
    await reopened.close();
  });

  it('sqlite: waits lockWaitMs for a file another store holds, then fails naming it', async () => {
    const file = path.join(dir, 'held.db');
    const holder = createStore({ driver: 'sqlite', path: file });
    try {
      const started = performance.now();
      expect(() => createStore({ driver: 'sqlite', path: file }, { lockWaitMs: 100 }))
        .to.throw()
        .that.satisfies((error: Error) => isGatewayError(error) && error.message.includes(file) && error.message.includes('another gateway process'));
      expect(performance.now() - started).to.be.within(80, 5_000);
    } finally {
      await holder.close();
    }
  });

  it('names an unsupported driver without echoing the rest of the config', () => {
    // What an unvalidated config could carry once a `redis` driver is configurable.
    const config = JSON.parse('{"driver":"redis","url":"redis://user:hunter2secret@db:6379"}') as StoreConfig;
    expect(() => createStore(config))
      .to.throw()
      .that.satisfies(
        (error: Error) => isGatewayError(error) && error.message.includes('"redis"') && !error.message.includes('hunter2'),
      );
  });
});
