import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import winston from 'winston';
import { BatchedLineTransport } from '../../../core/logging/batched-line-transport';

function recorder() {
  const writes: string[] = [];
  return { writes, stream: { write: (text: string) => writes.push(text) > 0 } };
}

describe('BatchedLineTransport', () => {
  it('writes the lines of a short window in one write, in order, across event-loop turns', async () => {
    const { writes, stream } = recorder();
    const logger = winston.createLogger({ format: winston.format.json(), transports: [new BatchedLineTransport({ stream })] });
    logger.info('one');
    await new Promise((resolve) => setImmediate(resolve));
    logger.warn('two', { n: 2 });
    await new Promise((resolve) => setTimeout(resolve, 1));
    logger.error('three');
    expect(writes).to.deep.equal([]);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(writes).to.have.length(1);
    const lines = writes[0].split('\n');
    expect(lines.pop()).to.equal('');
    expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).to.deep.equal(['one', 'two', 'three']);

    logger.info('four');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(writes).to.have.length(2);
    expect(writes[1]).to.contain('"four"');
  });

  it('writes at once when 64 KB of lines are waiting', () => {
    const { writes, stream } = recorder();
    const transport = new BatchedLineTransport({ stream });
    const line = 'x'.repeat(1023);
    for (let i = 0; i < 63; i += 1) transport.log({ [Symbol.for('message')]: line }, () => undefined);
    expect(writes).to.deep.equal([]);
    transport.log({ [Symbol.for('message')]: line }, () => undefined);
    expect(writes).to.have.length(1);
    expect(writes[0]).to.have.length(64 * 1024);
    transport.close();
  });

  it('keeps no process alive while lines wait', () => {
    const script = [
      `const { BatchedLineTransport } = require(${JSON.stringify(path.resolve(__dirname, '../../../core/logging/batched-line-transport.ts'))});`,
      'const t = new BatchedLineTransport();',
      "t.log({ [Symbol.for('message')]: 'waiting' }, () => {});",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 10_000 });
    expect(run.status).to.equal(0);
    expect(run.stdout).to.equal('waiting\n');
  });

  it('flush() and close() write what is waiting at once', () => {
    const { writes, stream } = recorder();
    const transport = new BatchedLineTransport({ stream });
    transport.log({ [Symbol.for('message')]: 'a' }, () => undefined);
    transport.log({ [Symbol.for('message')]: 'b' }, () => undefined);
    expect(writes).to.deep.equal([]);
    transport.close();
    expect(writes).to.deep.equal(['a\nb\n']);
    transport.flush();
    expect(writes).to.have.length(1);
  });

  it('writes lines still waiting when the process exits, a crash included', () => {
    const script = [
      `const { BatchedLineTransport } = require(${JSON.stringify(path.resolve(__dirname, '../../../core/logging/batched-line-transport.ts'))});`,
      'const t = new BatchedLineTransport();',
      "t.log({ [Symbol.for('message')]: 'last words' }, () => {});",
      "throw new Error('boom');",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    expect(run.status).to.equal(1);
    expect(run.stdout).to.equal('last words\n');
  });
});

describe('BatchedLineTransport.logLater', () => {
  it('formats a held entry only when its batch is written, with the time it was given, in its place among the lines', () => {
    const { writes, stream } = recorder();
    const transport = new BatchedLineTransport({ stream });
    const calls: Array<[Record<string | symbol, unknown>, number]> = [];
    const format = (entry: Record<string | symbol, unknown>, at: number) => {
      calls.push([entry, at]);
      entry[Symbol.for('message')] = `late ${String(entry.n)} at ${at}`;
      return entry;
    };
    transport.log({ [Symbol.for('message')]: 'first' }, () => undefined);
    transport.logLater({ n: 1 }, 1234, format);
    transport.logLater({ n: 2 }, 1235, () => undefined);
    transport.log({ [Symbol.for('message')]: 'last' }, () => undefined);
    expect(calls).to.deep.equal([]);
    transport.flush();
    expect(calls.map(([, at]) => at)).to.deep.equal([1234]);
    // The entry the format drops (undefined) writes nothing.
    expect(writes).to.deep.equal(['first\nlate 1 at 1234\nlast\n']);
  });
});
