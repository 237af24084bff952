import { Writable } from 'node:stream';
import { expect } from 'chai';
import winston from 'winston';
import { BatchedLineTransport } from '../../../core/logging/batched-line-transport';
import { createAccessLog } from '../../../core/logging/create-access-log';
import { jsonLineWriterOf } from '../../../core/logging/json-line-writer';
import { createLogger, type CreateLoggerOptions, type Logger } from '../../../core/logging/create-logger';

const SECRET = 'upstream-secret-0123456789';

/** The logger createLogger builds, its Console transport swapped for a stream the test reads. */
function captureLogger(options: CreateLoggerOptions, transportOptions: { level?: string; format?: winston.Logform.Format } = {}) {
  const logger: Logger = createLogger(options);
  let written = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      written += chunk.toString();
      callback();
    },
  });
  logger.clear().add(new winston.transports.Stream({ stream, ...transportOptions }));
  const entries = async (): Promise<Array<Record<string, unknown>>> => {
    await new Promise((resolve) => setImmediate(resolve));
    return written
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  return { logger, entries };
}

const FIELDS = { requestId: 'req-1', method: 'POST', path: '/openai/v1/chat/completions', status: 200, stream: false, latencyMs: 1.5 };

describe('createAccessLog', () => {
  it('writes the entry log.info("request", fields) writes: same fields, level, message and a timestamp', async () => {
    const { logger, entries } = captureLogger({ level: 'info' });
    logger.info('request', FIELDS);
    createAccessLog(logger)(FIELDS);
    const [viaWinston, viaAccessLog] = await entries();
    expect(viaAccessLog).to.have.property('timestamp').that.is.a('string');
    const { timestamp: _a, ...expected } = viaWinston;
    const { timestamp: _b, ...actual } = viaAccessLog;
    expect(actual).to.deep.equal(expected);
    expect(actual).to.include({ level: 'info', message: 'request', requestId: 'req-1', status: 200 });
  });

  it('goes through the redaction: configured secrets, sk- keys and credential-named fields are masked', async () => {
    const { logger, entries } = captureLogger({ level: 'info', secrets: () => [SECRET] });
    createAccessLog(logger)({ path: `/x/${SECRET}`, note: 'key sk-abcdefghijklmnopqrstuvwxyz', authorization: 'Bearer abcdefghijklmnop' });
    const [entry] = await entries();
    const line = JSON.stringify(entry);
    expect(line).not.to.contain(SECRET);
    expect(line).not.to.contain('sk-abcdefghijklmnopqrstuvwxyz');
    expect(line).not.to.contain('abcdefghijklmnop');
    expect(entry.path).to.equal('/x/...6789');
  });

  it('writes nothing when the logger is above info or silent', async () => {
    const warn = captureLogger({ level: 'warn' });
    createAccessLog(warn.logger)(FIELDS);
    expect(await warn.entries()).to.deep.equal([]);

    const silent = captureLogger({ level: 'info' });
    silent.logger.silent = true;
    createAccessLog(silent.logger)(FIELDS);
    expect(await silent.entries()).to.deep.equal([]);
  });

  it("honours a transport's own level and format", async () => {
    const quiet = captureLogger({ level: 'debug' }, { level: 'warn' });
    createAccessLog(quiet.logger)(FIELDS);
    expect(await quiet.entries()).to.deep.equal([]);

    const tagged = winston.format((info) => ({ ...info, tagged: true }))();
    const formatted = captureLogger({ level: 'info' }, { format: winston.format.combine(tagged, winston.format.json()) });
    createAccessLog(formatted.logger)(FIELDS);
    const [entry] = await formatted.entries();
    expect(entry).to.include({ message: 'request', tagged: true });
  });
});

describe('createAccessLog on a JSON logger (its own line writer)', () => {
  const MESSAGE = Symbol.for('message');

  /** The line the logger's own format chain writes for the same fields at the same instant. */
  function chainLine(logger: Logger, fields: Record<string, unknown>, timestamp: string): string {
    const info = logger.format.transform({ ...fields, level: 'info', message: 'request', [Symbol.for('level')]: 'info' } as never, logger.format.options) as Record<string | symbol, unknown>;
    return String(info[MESSAGE]).replace(/"timestamp":"[^"]*"/, `"timestamp":"${timestamp}"`);
  }

  const CASES: Array<[string, Record<string, unknown>]> = [
    ['the fields of a request line', { requestId: 'req-1', method: 'POST', path: '/openai/v1/chat/completions', platform: 'openai', endpoint: 'chat.completions', model: 'gpt-4o-mini', stream: false, status: 200, completed: true, latencyMs: 1.234567, upstreamLatencyMs: 0.5 }],
    ['undefined fields left out, non-finite numbers as null', { requestId: 'r', model: undefined, latencyMs: Number.NaN, status: 0, big: 12n }],
    ['strings that need escaping, unicode and a lone surrogate', { path: '/a"b\\c\n\t\u0001/é/😀/\ud800', model: '</script>' }],
    ['secrets and credential-named fields', { path: `/x/${SECRET}`, note: 'key sk-abcdefghijklmnopqrstuvwxyz', authorization: 'Bearer abcdefghijklmnop', Zeta: 1, alpha: 2 }],
    // request-log's own object: keys already sorted, level, message and timestamp held open, so it is serialised as it is.
    ['keys already in order with level, message and timestamp held open', { completed: true, endpoint: 'chat.completions', latencyMs: 2.5, level: undefined, message: undefined, method: 'POST', model: undefined, path: `/p/${SECRET}`, platform: 'openai', requestId: 'r', status: 200, stream: false, timestamp: undefined, upstreamLatencyMs: 1 }],
    ['keys already in order, with a bigint', { big: 12n, level: undefined, message: undefined, timestamp: undefined }],
  ];
  for (const [name, fields] of CASES) {
    it(`writes the very bytes of the format chain: ${name}`, async () => {
      const { logger } = captureLogger({ level: 'info', secrets: () => [SECRET] });
      expect(jsonLineWriterOf(logger), 'the fast writer is in use').to.be.a('function');
      const seen: string[] = [];
      logger.clear().add(new winston.transports.Stream({ stream: new Writable({ write(chunk: Buffer, _e, cb) { seen.push(chunk.toString()); cb(); } }) }));
      createAccessLog(logger)({ ...fields });
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).to.have.length(1);
      const line = seen[0].trimEnd();
      const timestamp = String((JSON.parse(line) as { timestamp: string }).timestamp);
      expect(line).to.equal(chainLine(logger, fields, timestamp));
    });
  }

  it('writes the bytes of the format chain for shapes that alternate on one logger (same keys in another order, a timestamp field, one key more)', async () => {
    const { logger } = captureLogger({ level: 'info', secrets: () => [SECRET] });
    const seen: string[] = [];
    logger.clear().add(new winston.transports.Stream({ stream: new Writable({ write(chunk: Buffer, _e, cb) { seen.push(chunk.toString()); cb(); } }) }));
    const shapes: Array<Record<string, unknown>> = [
      { requestId: 'a', status: 200, model: 'm' },
      { model: 'm', requestId: 'a', status: 200 },
      { requestId: 'a', status: 200, model: 'm', zz: true },
      { timestamp: 'mine', requestId: 'a' },
      { requestId: 'b', status: 500, model: 'n' },
    ];
    const access = createAccessLog(logger);
    for (let round = 0; round < 3; round += 1) for (const fields of shapes) access({ ...fields });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).to.have.length(15);
    seen.forEach((written, i) => {
      const line = written.trimEnd();
      const timestamp = String((JSON.parse(line) as { timestamp: string }).timestamp);
      expect(line).to.equal(chainLine(logger, shapes[i % shapes.length], timestamp));
    });
  });

  it('leaves entries with nested values to the format chain', async () => {
    const { logger, entries } = captureLogger({ level: 'info' });
    createAccessLog(logger)({ requestId: 'r', usage: { z: 1, a: 2 } });
    const [entry] = await entries();
    expect(entry).to.deep.include({ requestId: 'r', usage: { a: 2, z: 1 }, message: 'request' });
  });
});

describe("createAccessLog on createLogger's batched stdout", () => {
  const MESSAGE = Symbol.for('message');

  function batchedLogger() {
    const logger = createLogger({ level: 'info', secrets: () => [SECRET] });
    const writes: string[] = [];
    const transport = new BatchedLineTransport({ stream: { write: (text: string) => writes.push(text) > 0 } });
    logger.clear().add(transport);
    return { logger, transport, lines: () => writes.join('').split('\n').filter((line) => line !== '') };
  }

  it('formats the line when the batch is written, with the time of the call, the same bytes as the format chain', async () => {
    const { logger, transport, lines } = batchedLogger();
    const fields: Record<string | symbol, unknown> = { completed: true, latencyMs: 2.5, level: undefined, message: undefined, path: `/p/${SECRET}`, requestId: 'r', status: 200, timestamp: undefined };
    const before = Date.now();
    createAccessLog(logger)(fields as Record<string, unknown>);
    const after = Date.now();
    expect(fields[MESSAGE], 'not formatted on the request').to.equal(undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(lines()).to.deep.equal([]);
    await new Promise((resolve) => setTimeout(resolve, 40));
    transport.flush();
    const [line] = lines();
    const timestamp = String((JSON.parse(line) as { timestamp: string }).timestamp);
    expect(Date.parse(timestamp)).to.be.within(before, after);
    const chain = logger.format.transform({ completed: true, latencyMs: 2.5, path: `/p/${SECRET}`, requestId: 'r', status: 200, level: 'info', message: 'request', [Symbol.for('level')]: 'info' } as never, logger.format.options) as Record<string | symbol, unknown>;
    expect(line).to.equal(String(chain[MESSAGE]).replace(/"timestamp":"[^"]*"/, `"timestamp":"${timestamp}"`));
    expect(line).not.to.contain(SECRET);
  });

  it('writes an entry with a nested value through the format chain, not lost at the flush', () => {
    const { logger, transport, lines } = batchedLogger();
    createAccessLog(logger)({ requestId: 'r1' });
    createAccessLog(logger)({ requestId: 'r2', usage: { input: 3 } });
    transport.flush();
    expect(lines().map((line) => (JSON.parse(line) as { requestId: string }).requestId).sort()).to.deep.equal(['r1', 'r2']);
    expect(lines().map((line) => (JSON.parse(line) as { usage?: unknown }).usage).filter(Boolean)).to.deep.equal([{ input: 3 }]);
  });

  it('keeps its place among the lines logged before and after it', () => {
    const { logger, transport, lines } = batchedLogger();
    logger.info('before');
    createAccessLog(logger)({ requestId: 'r' });
    logger.warn('after');
    transport.flush();
    expect(lines().map((line) => (JSON.parse(line) as { message: string }).message)).to.deep.equal(['before', 'request', 'after']);
  });
});
