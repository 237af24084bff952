import { Writable } from 'node:stream';
import { expect } from 'chai';
import winston from 'winston';
import { GatewayError, isGatewayError } from '../../../core/errors/gateway-error';
import { createLogger, type CreateLoggerOptions, type Logger } from '../../../core/logging/create-logger';

const CLAUDE_KEY = 'sk-ant-api03-Zx9QwErTyUiOp-a1b2';
const GEMINI_KEY = 'AIzaSyD-FAKEFAKEFAKEFAKE-9z8y';

type Captured = { logger: Logger; text: () => Promise<string>; entries: () => Promise<Array<Record<string, unknown>>> };

/** The logger createLogger builds, its Console transport swapped for a stream the test reads. */
function captureLogger(options: CreateLoggerOptions): Captured {
  const logger = createLogger(options);
  let written = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      written += chunk.toString();
      callback();
    },
  });
  logger.clear().add(new winston.transports.Stream({ stream }));
  const text = async (): Promise<string> => {
    await new Promise((resolve) => setImmediate(resolve));
    return written;
  };
  const entries = async (): Promise<Array<Record<string, unknown>>> =>
    (await text())
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, text, entries };
}

describe('createLogger', () => {
  it('writes one JSON object per line: level, message, fields, timestamp', async () => {
    const { logger, entries } = captureLogger({ level: 'info' });
    logger.info('platform mounted', { plugin: 'claude', baseUrl: 'http://127.0.0.1:9' });
    logger.warn('credential limited', { until: 1700000000000 });
    const [first, second] = await entries();
    expect(first).to.include({ level: 'info', message: 'platform mounted', plugin: 'claude', baseUrl: 'http://127.0.0.1:9' });
    expect(new Date(String(first.timestamp)).toISOString()).to.equal(first.timestamp);
    expect(second).to.include({ level: 'warn', message: 'credential limited', until: 1700000000000 });
  });

  it('writes to stdout by default', async () => {
    const logger = createLogger({ level: 'info' });
    const seen: string[] = [];
    const originalWrite = process.stdout.write;
    process.stdout.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      if (typeof chunk === 'string' && chunk.includes('stdout probe')) {
        seen.push(chunk);
        return true;
      }
      return Reflect.apply(originalWrite, this, [chunk, ...rest]);
    } as typeof process.stdout.write;
    try {
      logger.info('stdout probe', { n: 1 });
      // Lines are written in batches (BatchedLineTransport).
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.stdout.write = originalWrite;
    }
    expect(seen).to.have.length(1);
    expect(seen[0].endsWith('\n')).to.equal(true);
    expect(JSON.parse(seen[0])).to.include({ level: 'info', message: 'stdout probe', n: 1 });
  });

  it('masks configured secrets in the message and in nested metadata', async () => {
    const { logger, text } = captureLogger({ level: 'debug', secrets: () => [CLAUDE_KEY, GEMINI_KEY] });
    logger.warn(`upstream rejected key ${CLAUDE_KEY}`, {
      upstream: {
        status: 401,
        body: { error: { message: `API key not valid: ${GEMINI_KEY}`, details: [{ reason: `key=${GEMINI_KEY}` }] } },
      },
      url: new URL(`https://upstream.invalid/v1beta/models?key=${GEMINI_KEY}`),
    });
    const out = await text();
    expect(out).not.to.include(CLAUDE_KEY);
    expect(out).not.to.include(GEMINI_KEY);
    const entry = JSON.parse(out) as {
      message: string;
      upstream: { status: number; body: { error: { message: string; details: Array<{ reason: string }> } } };
      url: string;
    };
    expect(entry.message).to.equal('upstream rejected key sk-ant-...a1b2');
    expect(entry.upstream.status).to.equal(401);
    expect(entry.upstream.body.error.message).to.equal('API key not valid: ...9z8y');
    expect(entry.upstream.body.error.details[0].reason).to.equal('key=...9z8y');
    expect(entry.url).to.equal('https://upstream.invalid/v1beta/models?key=...9z8y');
  });

  it('masks a secret that appears after the logger was created', async () => {
    const secrets = new Set<string>();
    const { logger, text } = captureLogger({ level: 'info', secrets: () => secrets });
    secrets.add('refreshed-oauth-access-token-7777');
    logger.info('token refreshed', { note: 'new: refreshed-oauth-access-token-7777' });
    const out = await text();
    expect(out).not.to.include('refreshed-oauth-access-token-7777');
    expect(out).to.include('...7777');
  });

  it('masks values under credential-named keys, whatever they look like, and keeps token counts', async () => {
    const { logger, entries } = captureLogger({ level: 'info' });
    logger.info('upstream request', {
      headers: {
        authorization: 'Bearer opaque-oauth-token-4321',
        'x-api-key': 'license-value-5678',
        'x-goog-api-key': 'goog-value-0000',
        Cookie: 'sessionKey=sk-ant-sid01-abcdefghijkl; theme=dark',
        'content-type': 'application/json',
      },
      apiKey: 'plainapikey1111',
      api_key: 'plainapikey2222',
      sessionKey: 'sk-ant-sid01-xyzxyzxyzxyz-3333',
      password: 'hunter2hunter2',
      tokens: [{ token: 'pooltoken-aaaa-bbbb', tier: 'premium' }],
      refresh_token: 'refresh-9999-8888',
      usage: { input_tokens: 12, output_tokens: 34, max_tokens: 100 },
    });
    const [entry] = await entries();
    expect(entry.headers).to.deep.equal({
      authorization: 'Bearer ...4321',
      'x-api-key': '...5678',
      'x-goog-api-key': '...0000',
      Cookie: '...dark',
      'content-type': 'application/json',
    });
    expect(entry).to.include({
      apiKey: '...1111',
      api_key: '...2222',
      sessionKey: 'sk-ant-...3333',
      password: '...ter2',
      refresh_token: '...8888',
    });
    expect(entry.tokens).to.deep.equal([{ token: '...bbbb', tier: 'premium' }]);
    expect(entry.usage).to.deep.equal({ input_tokens: 12, output_tokens: 34, max_tokens: 100 });
  });

  it('never modifies the objects passed to it', async () => {
    const { logger, entries } = captureLogger({ level: 'info', secrets: () => [CLAUDE_KEY] });
    const meta = { request: { headers: { 'x-api-key': CLAUDE_KEY }, note: `key ${CLAUDE_KEY}` } };
    logger.info('call', meta);
    await entries();
    expect(meta.request.headers['x-api-key']).to.equal(CLAUDE_KEY);
    expect(meta.request.note).to.equal(`key ${CLAUDE_KEY}`);
  });

  it('masks the metadata of child loggers', async () => {
    const { logger, entries } = captureLogger({ level: 'info', secrets: () => [CLAUDE_KEY] });
    const child = logger.child({ plugin: 'claude', platform: 'claude', credential: CLAUDE_KEY });
    child.child({ requestId: 'req-1' }).info('request done', { status: 200 });
    const [entry] = await entries();
    expect(entry).to.include({ plugin: 'claude', requestId: 'req-1', credential: 'sk-ant-...a1b2', status: 200 });
  });

  it('writes errors with message, code and stack, secrets masked', async () => {
    const { logger, entries } = captureLogger({ level: 'info', secrets: () => [CLAUDE_KEY] });
    const upstream = new Error(`401 from upstream for ${CLAUDE_KEY}`);
    logger.error('upstream failed', {
      error: new GatewayError('GW_UPSTREAM_ERROR', `invalid x-api-key ${CLAUDE_KEY}`, { status: 401, cause: upstream }),
    });
    logger.error(new Error(`thrown with ${CLAUDE_KEY}`));
    const [withMeta, thrown] = await entries();
    const error = withMeta.error as Record<string, unknown>;
    expect(error).to.include({ name: 'GatewayError', code: 'GW_UPSTREAM_ERROR', status: 401, message: 'invalid x-api-key sk-ant-...a1b2' });
    expect(error.stack).to.be.a('string').and.include('invalid x-api-key sk-ant-...a1b2');
    expect((error.cause as Record<string, unknown>).message).to.equal('401 from upstream for sk-ant-...a1b2');
    expect(thrown).to.include({ level: 'error', message: 'thrown with sk-ant-...a1b2' });
    expect(thrown.stack).to.be.a('string').and.not.include(CLAUDE_KEY);
    expect(JSON.stringify([withMeta, thrown])).not.to.include(CLAUDE_KEY);
  });

  it('survives circular metadata', async () => {
    const { logger, entries } = captureLogger({ level: 'info' });
    const node: Record<string, unknown> = { name: 'n' };
    node.self = node;
    logger.info('cycle', { node, auth: { apiKey: node } });
    const [entry] = await entries();
    expect(entry.node).to.deep.equal({ name: 'n', self: '[Circular]' });
  });

  it('writes only entries at or above the level, without redacting the others', async () => {
    let secretsCalls = 0;
    const { logger, entries } = captureLogger({
      level: 'warn',
      secrets: () => {
        secretsCalls += 1;
        return [CLAUDE_KEY];
      },
    });
    logger.debug('per-request detail', { big: 'x'.repeat(1000) });
    logger.info('startup');
    logger.child({ requestId: 'r' }).info('child info');
    logger.warn('upstream misbehaved');
    logger.error('operator must act');
    expect((await entries()).map((entry) => entry.message)).to.deep.equal(['upstream misbehaved', 'operator must act']);
    expect(secretsCalls).to.equal(2);
  });

  it('follows a level changed at run time', async () => {
    const { logger, entries } = captureLogger({ level: 'info' });
    logger.debug('hidden');
    logger.level = 'debug';
    logger.debug('shown');
    expect((await entries()).map((entry) => entry.message)).to.deep.equal(['shown']);
  });

  it('pretty: one readable line per entry, secrets still masked', async () => {
    const { logger, text } = captureLogger({ level: 'info', format: 'pretty', secrets: () => [CLAUDE_KEY] });
    logger.info('platform mounted', { plugin: 'claude', credential: CLAUDE_KEY });
    const out = await text();
    expect(out).not.to.include(CLAUDE_KEY);
    expect(out).to.match(/^\d{4}-\d\d-\d\dT[\d:.]+Z \S*info\S* platform mounted \{"plugin":"claude","credential":"sk-ant-\.\.\.a1b2"\}\n$/);
  });

  it('refuses an unknown level, naming it', () => {
    expect(() => createLogger({ level: 'loud' }))
      .to.throw()
      .that.satisfies((error: Error) => isGatewayError(error) && error.message.includes('"loud"'));
  });
});
