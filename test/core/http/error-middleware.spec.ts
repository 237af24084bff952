import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import OpenAI, { toFile } from 'openai';
import { discardUnreadUpload, UNREAD_UPLOAD_GRACE_MS } from '../../../core/http/discard-unread-upload';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../helpers/start-gateway';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('an answer given before the body was read', function () {
  this.timeout(20_000);
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ openai: { plugin: 'openai', baseUrl: 'http://127.0.0.1:9', credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] } });
  });
  after(() => gw.close());

  it('is written at once, and a slow upload is cut off after the grace instead of read to its end (a refused license)', async () => {
    const socket = net.connect(Number(new URL(gw.url).port), '127.0.0.1');
    let answer = '';
    let answeredAt = 0;
    socket.on('data', (data: Buffer) => {
      answer += data.toString();
      answeredAt ||= Date.now();
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const sentAt = Date.now();
    socket.write('POST /openai/v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{');
    // One byte every 100 ms: the 100 KB would take hours.
    const drip = setInterval(() => socket.writable && socket.write('x'), 100);
    await closed;
    clearInterval(drip);
    const closedAt = Date.now();
    expect(answer).to.match(/^HTTP\/1\.1 401 /);
    expect(answeredAt - sentAt).to.be.below(UNREAD_UPLOAD_GRACE_MS / 2);
    expect(closedAt - sentAt).to.be.within(UNREAD_UPLOAD_GRACE_MS - 100, UNREAD_UPLOAD_GRACE_MS + 2000);
  });

  it('keeps reading an upload that goes on after the answer, and the connection then serves the next request', async () => {
    const socket = net.connect(Number(new URL(gw.url).port), '127.0.0.1');
    let received = '';
    const errors: string[] = [];
    socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    const nextData = (): Promise<void> => new Promise((resolve) => socket.once('data', (data: Buffer) => ((received += data.toString()), resolve())));
    const body = Buffer.alloc(400_000, 'x');
    socket.write(`POST /openai/v1/images/edits HTTP/1.1\r\nhost: x\r\ncontent-type: multipart/form-data; boundary=b\r\ncontent-length: ${body.length}\r\n\r\n`);
    socket.write(body.subarray(0, 1000));
    await nextData();
    expect(received).to.match(/^HTTP\/1\.1 401 /);
    expect(received).not.to.match(/\r\nconnection: close\r\n/i);
    // The client goes on sending, as an SDK streaming its form does, then asks again on the same connection.
    for (let at = 1000; at < body.length; at += 50_000) {
      await new Promise<void>((resolve) => socket.write(body.subarray(at, at + 50_000), () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    received = '';
    socket.write(`GET /openai/v1/models HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${TEST_LICENSE}\r\n\r\n`);
    await Promise.race([nextData(), new Promise((resolve) => socket.once('close', resolve))]);
    socket.destroy();
    expect(errors).to.deep.equal([]);
    expect(received).to.match(/^HTTP\/1\.1 \d{3} /);
  });

  it('reaches an SDK still sending its multipart form as the error, never a connection reset, and the connection serves on', async () => {
    const refused = new OpenAI({ apiKey: 'wrong-license', baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const image = await toFile(Buffer.concat([PNG, Buffer.alloc(2 << 20)]), 'in.png', { type: 'image/png' });
      const error = await refused.images.edit({ model: 'gpt-image-1', prompt: 'x', image }).catch((e: unknown) => e);
      outcomes.push(error instanceof OpenAI.APIError ? `${error.constructor.name} ${String(error.status)}` : String(error));
    }
    expect(outcomes).to.deep.equal(Array(10).fill('AuthenticationError 401'));
    const models = await new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 }).images
      .edit({ model: 'gpt-image-1', prompt: 'x', image: await toFile(Buffer.alloc(0), 'in.png', { type: 'image/png' }) })
      .catch((e: unknown) => e);
    expect(models).to.be.instanceOf(OpenAI.BadRequestError);
  });

  it('refuses a JSON body whose declared length is over the limit at once, not after reading the whole slow upload', async () => {
    const socket = net.connect(Number(new URL(gw.url).port), '127.0.0.1');
    const answered = new Promise<string>((resolve) => socket.once('data', (data: Buffer) => resolve(data.toString())));
    const sentAt = Date.now();
    socket.write(
      `POST /openai/v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${TEST_LICENSE}\r\ncontent-type: application/json\r\ncontent-length: ${200 * 1024 * 1024}\r\n\r\n{`,
    );
    const answer = await answered;
    socket.destroy();
    expect(answer).to.match(/^HTTP\/1\.1 413 /);
    expect(Date.now() - sentAt).to.be.below(UNREAD_UPLOAD_GRACE_MS / 2);
  });
});

describe('a chunked JSON body over the limit', function () {
  this.timeout(20_000);
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ openai: { plugin: 'openai', baseUrl: 'http://127.0.0.1:9', credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] } }, { limits: { jsonBodyBytes: 1000, fileBytes: 1000 } });
  });
  after(() => gw.close());

  it('is a 413 as soon as the limit is passed, not once the slow upload has ended', async () => {
    const socket = net.connect(Number(new URL(gw.url).port), '127.0.0.1');
    const answered = new Promise<string>((resolve) => socket.once('data', (data: Buffer) => resolve(data.toString())));
    socket.write(`POST /openai/v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${TEST_LICENSE}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    const piece = 'x'.repeat(600);
    const chunk = `${piece.length.toString(16)}\r\n${piece}\r\n`;
    socket.write(chunk);
    socket.write(chunk);
    const sentAt = Date.now();
    // Then one piece every 200 ms, for ever: the answer must not wait for the end.
    const drip = setInterval(() => socket.writable && socket.write(chunk), 200);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('no answer within 3 s'), 3000)));
    try {
      const answer = await Promise.race([answered, late]);
      expect(answer).to.match(/^HTTP\/1\.1 413 /);
      expect(Date.now() - sentAt).to.be.below(1000);
    } finally {
      clearTimeout(timer);
      clearInterval(drip);
      socket.destroy();
    }
  });
});

describe('discardUnreadUpload', () => {
  it('takes its listeners off a keep-alive socket once each upload has ended', () => {
    const socket = new EventEmitter() as EventEmitter & { destroy(): void };
    socket.destroy = () => undefined;
    const before = socket.listenerCount('close');
    for (let i = 0; i < 20; i += 1) {
      const req = Object.assign(new EventEmitter(), { complete: false, socket, resume: () => undefined });
      discardUnreadUpload(req as unknown as IncomingMessage, 60_000);
      req.emit('end');
    }
    expect(socket.listenerCount('close')).to.equal(before);
  });

  it('holds nothing for a client that is already gone (its upload cut off)', () => {
    const socket = Object.assign(new EventEmitter(), { destroyed: true, destroy: () => undefined });
    const req = Object.assign(new EventEmitter(), { complete: false, socket, resume: () => undefined });
    discardUnreadUpload(req as unknown as IncomingMessage, 60_000);
    expect(socket.listenerCount('close')).to.equal(0);
    expect(req.listenerCount('end')).to.equal(0);
  });
});
