import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { consumeBody, type BodySink } from '../../../core/pipeline/consume-body';

/** A body the test pushes into, already flowing when it is returned (as an upstream body is once the pump waits). */
async function flowingBody(sink: BodySink, client = new EventEmitter()): Promise<{ body: Readable; done: Promise<void> }> {
  const body = new Readable({ read() {} });
  const done = consumeBody(body, client, sink);
  await new Promise((resolve) => setImmediate(resolve));
  return { body, done };
}

function recordingSink(log: string[], options: { completeOn?: string; full?: () => boolean } = {}): BodySink {
  return {
    take(chunk) {
      log.push(`take ${chunk.toString()}`);
      return chunk.toString() === options.completeOn;
    },
    flush() {
      log.push('flush');
      return !(options.full?.() ?? false);
    },
  };
}

describe('consumeBody', () => {
  it('hands each chunk to the sink as the parser pushes it, and flushes once after the chunks of one read', async () => {
    const log: string[] = [];
    const { body, done } = await flowingBody(recordingSink(log));
    // One socket read: the HTTP parser pushes its chunks one after the other in the same tick.
    for (const text of ['a', 'b', 'c']) {
      log.push(`push ${text}`);
      body.push(text);
    }
    await new Promise((resolve) => setImmediate(resolve));
    body.push('d');
    body.push(null);
    await done;
    expect(log).to.deep.equal(['push a', 'take a', 'push b', 'take b', 'push c', 'take c', 'flush', 'take d', 'flush']);
  });

  it('pauses the body while the client is full and resumes it when the client drains', async () => {
    const log: string[] = [];
    const client = new EventEmitter();
    let full = true;
    const { body, done } = await flowingBody(recordingSink(log, { full: () => full }), client);
    body.push('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(body.isPaused()).to.equal(true);
    body.push('b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).to.deep.equal(['take a', 'flush']);
    full = false;
    client.emit('drain');
    body.push(null);
    await done;
    expect(log).to.deep.equal(['take a', 'flush', 'take b', 'flush']);
  });

  it('stops at once when the sink has the whole answer, after flushing it', async () => {
    const log: string[] = [];
    const { body, done } = await flowingBody(recordingSink(log, { completeOn: 'end' }));
    body.push('a');
    body.push('end');
    await done;
    body.push('after');
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).to.deep.equal(['take a', 'take end', 'flush']);
  });

  it('resolves when the client goes away', async () => {
    const client = new EventEmitter();
    const { done } = await flowingBody(recordingSink([]), client);
    client.emit('close');
    await done;
  });

  it('rejects with the body error, and when the body is destroyed before its end', async () => {
    const broken = await flowingBody(recordingSink([]));
    broken.body.destroy(new Error('socket hang up'));
    await expectRejection(broken.done, 'socket hang up');
    const cut = await flowingBody(recordingSink([]));
    cut.body.destroy();
    await expectRejection(cut.done, 'Premature close');
  });

  it('rejects with what the sink throws', async () => {
    const failing: BodySink = {
      take() {
        throw new Error('cannot decode');
      },
      flush: () => true,
    };
    const { body, done } = await flowingBody(failing);
    body.push('x');
    await expectRejection(done, 'cannot decode');
  });
});

async function expectRejection(promise: Promise<unknown>, message: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).to.be.instanceOf(Error);
  expect((error as Error).message).to.equal(message);
}
