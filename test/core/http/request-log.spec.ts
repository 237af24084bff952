import http from 'node:http';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import winston from 'winston';
import { createGateway, parseConfig, type Gateway } from '@gateway/core';
import { createLogger } from '../../../core/logging/create-logger';
import { TEST_LICENSE } from '../../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../../helpers/start-raw-upstream';

describe('access lines (request log)', () => {
  let upstream: RawUpstream;
  let gateway: Gateway;
  let url: string;
  let written = '';
  const lines = (): Array<Record<string, unknown>> =>
    written
      .split('\n')
      .filter((line) => line.includes('"requestId"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  before(async () => {
    upstream = await startRawUpstream();
    const log = createLogger({ level: 'info' });
    log.clear().add(new winston.transports.Stream({ stream: new Writable({ write: (chunk, _encoding, done) => ((written += String(chunk)), done()) }) }));
    const { config } = parseConfig(
      { licenses: [TEST_LICENSE], store: { driver: 'memory' }, platforms: { openai: { plugin: 'openai', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] } } },
      `${process.cwd()}/test-config`,
      {},
    );
    gateway = await createGateway(config, { log });
    url = (await gateway.listen(0, '127.0.0.1')).url;
  });
  after(async () => {
    await gateway.close(200);
    await upstream.close();
  });

  it('gives a request whose client left before any answer status 499, not the 200 nothing was sent with', async () => {
    upstream.handle(() => undefined); // never answers
    await new Promise<void>((resolve) => {
      const req = http.request(`${url}/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', 'x-request-id': 'left-early' },
      });
      req.on('error', () => resolve());
      req.end(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
      setTimeout(() => req.destroy(), 100);
    });
    for (let i = 0; i < 50 && !lines().some((line) => line.requestId === 'left-early'); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines().find((line) => line.requestId === 'left-early')).to.include({ status: 499, completed: false, path: '/openai/v1/chat/completions' });
  });

  it('keeps the status that was sent', async () => {
    const res = await fetch(`${url}/openai/v1/chat/completions`, { method: 'POST', headers: { 'x-request-id': 'no-license' }, body: '{}' });
    expect(res.status).to.equal(401);
    for (let i = 0; i < 50 && !lines().some((line) => line.requestId === 'no-license'); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines().find((line) => line.requestId === 'no-license')).to.include({ status: 401, completed: true });
  });
});
