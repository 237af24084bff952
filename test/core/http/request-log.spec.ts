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
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.message === 'request');
  /** A streamed request with its request id; resolves with the whole answer text. */
  const stream = async (path: string, requestId: string, extra: Record<string, unknown> = {}): Promise<string> => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }], ...extra }),
    });
    return res.text();
  };
  /** The access line of `requestId`, once written (the line goes out when the response closes). */
  const accessLine = async (requestId: string): Promise<Record<string, unknown> | undefined> => {
    for (let i = 0; i < 50 && !lines().some((line) => line.requestId === requestId); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    return lines().find((line) => line.requestId === requestId);
  };

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

  it("cuts a model name of megabytes in the request's line (the line was as large as the request)", async () => {
    upstream.handle((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no such model"}}'));
    const model = 'm'.repeat(1024 * 1024);
    await fetch(`${url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', 'x-request-id': 'huge-model' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect((await accessLine('huge-model'))?.model).to.equal(`${'m'.repeat(256)}… (1048576 characters)`);
  });

  it('writes no line for health probes, and one for every other request', async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(`${url}/healthz`, { headers: { 'x-request-id': `probe-${i}` } })).status).to.equal(200);
    const unknown = await fetch(`${url}/openai/v1/nothing-here`, { headers: { 'x-request-id': 'after-probes' } });
    expect(unknown.status).to.equal(404);
    expect(await accessLine('after-probes')).to.include({ status: 404, path: '/openai/v1/nothing-here' });
    expect(lines().filter((line) => line.path === '/healthz')).to.deep.equal([]);
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
    expect(await accessLine('left-early')).to.include({ status: 499, completed: false, path: '/openai/v1/chat/completions' });
  });

  it('counts a stream that ended with its error event as unfinished, and says why', async () => {
    upstream.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n');
      setTimeout(() => req.socket.destroy(), 20);
    });
    expect(await stream('/openai/v1/chat/completions', 'cut-midway')).to.include('"error"');
    expect(await accessLine('cut-midway')).to.include({ status: 200, completed: false, error: 'gw_upstream_unreachable' });
  });

  it('says the same of a translated stream whose upstream sent an error event', async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n');
      res.end('data: {"error":{"message":"Overloaded","type":"server_error","code":"overloaded"}}\n\n');
    });
    expect(await stream('/openai/v1/messages', 'translated-cut', { max_tokens: 10 })).to.include('event: error');
    expect(await accessLine('translated-cut')).to.include({ status: 200, completed: false, error: 'gw_upstream_error' });
  });

  it("says so of a passthrough stream that relays the upstream's own error event", async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"say \\"data: {\\"error\\"\\""}}]}\n\n');
      res.end('data: {"error":{"message":"Overloaded","type":"server_error"}}\n\n');
    });
    expect(await stream('/openai/v1/chat/completions', 'relayed-error')).to.include('Overloaded');
    expect(await accessLine('relayed-error')).to.include({ status: 200, completed: false, error: 'upstream_error_event' });
  });

  it("says the same of a custom stream (a streamed image generation) ended with the gateway's error event", async () => {
    upstream.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: image_generation.partial_image\ndata: {"type":"image_generation.partial_image","b64_json":"AAAA","partial_image_index":0}\n\n');
      setTimeout(() => req.socket.destroy(), 20);
    });
    const res = await fetch(`${url}/openai/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', 'x-request-id': 'image-cut' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'a cat', stream: true }),
    });
    expect(await res.text()).to.include('event: error');
    expect(await accessLine('image-cut')).to.include({ status: 200, completed: false, error: 'gw_upstream_unreachable' });
  });

  it("says so of a custom stream that relays the upstream's own error event", async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: image_generation.partial_image\ndata: {"type":"image_generation.partial_image","b64_json":"AAAA","partial_image_index":0}\n\n');
      res.end('event: error\ndata: {"type":"error","error":{"message":"boom","type":"server_error"}}\n\n');
    });
    const res = await fetch(`${url}/openai/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', 'x-request-id': 'image-error-event' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'a cat', stream: true }),
    });
    expect(await res.text()).to.include('boom');
    expect(await accessLine('image-error-event')).to.include({ status: 200, completed: false, error: 'upstream_error_event' });
  });

  it('does not take model text that quotes an error event for one', async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"choices":[{"index":0,"delta":{"content":"line\\ndata: {\\"error\\": 1}\\nevent: error"}}]}\n\ndata: [DONE]\n\n');
    });
    await stream('/openai/v1/chat/completions', 'quoted-error');
    expect(await accessLine('quoted-error')).to.include({ status: 200, completed: true }).and.not.have.property('error');
  });

  it('keeps the status that was sent', async () => {
    const res = await fetch(`${url}/openai/v1/chat/completions`, { method: 'POST', headers: { 'x-request-id': 'no-license' }, body: '{}' });
    expect(res.status).to.equal(401);
    expect(await accessLine('no-license')).to.include({ status: 401, completed: true });
  });
});
