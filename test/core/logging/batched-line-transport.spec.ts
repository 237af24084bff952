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
  it('writes the lines of one event-loop turn in one write, in order', async () => {
    const { writes, stream } = recorder();
    const logger = winston.createLogger({ format: winston.format.json(), transports: [new BatchedLineTransport({ stream })] });
    logger.info('one');
    logger.warn('two', { n: 2 });
    logger.error('three');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(writes).to.have.length(1);
    const lines = writes[0].split('\n');
    expect(lines.pop()).to.equal('');
    expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).to.deep.equal(['one', 'two', 'three']);

    logger.info('four');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(writes).to.have.length(2);
    expect(writes[1]).to.contain('"four"');
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
