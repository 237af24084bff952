import net from 'node:net';
import { PassThrough } from 'node:stream';
import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import { startSimulator, type Simulator } from '../../../simulator';
import { answerClientError } from '../../../core/http/answer-client-error';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../helpers/start-gateway';

/** Sends raw bytes and reads the whole answer until the gateway closes the connection. */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
  });
}

function split(answer: string): { status: number; head: string; body: unknown } {
  const end = answer.indexOf('\r\n\r\n');
  const head = answer.slice(0, end);
  return { status: Number(head.split(' ')[1]), head, body: JSON.parse(answer.slice(end + 4)) };
}

describe('requests refused by Node\'s HTTP parser are answered in the endpoint family\'s error shape', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let port: number;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway({ claude: { plugin: 'claude', baseUrl: sim.anthropicUrl, credentials: [{ apiKey: 'sk-ant-sim-upstream-0001' }] } });
    port = Number(new URL(gw.url).port);
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });

  it('headers over the size limit: 431 with a body, which the Anthropic SDK reads as the error it names', async () => {
    const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude`, maxRetries: 0, defaultHeaders: { 'x-big': 'a'.repeat(20_000) } });
    const error = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).to.equal(431);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).to.deep.equal({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'request headers are larger than the limit of 16384 bytes' },
    });
  });

  it('a Gemini path gets the Gemini shape; a malformed chunked body, the family\'s 400', async () => {
    const big = split(await exchange(port, `POST /claude/v1beta/models/m:generateContent HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(big.status).to.equal(431);
    expect(big.body).to.deep.include({ error: { code: 431, message: 'request headers are larger than the limit of 16384 bytes', status: 'INVALID_ARGUMENT' } });
    const chunked = split(await exchange(port, 'POST /claude/v1/chat/completions HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n'));
    expect(chunked.status).to.equal(400);
    expect(chunked.head).to.match(/content-type: application\/json/i);
    expect((chunked.body as { error: { type: string; message: string } }).error).to.deep.include({ type: 'invalid_request_error', message: 'malformed HTTP request (HPE_INVALID_CHUNK_SIZE)' });
  });

  it('an expectation other than 100-continue: 417 in the family shape', async () => {
    const res = split(await exchange(port, 'POST /claude/v1/messages HTTP/1.1\r\nhost: x\r\nexpect: bogus\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}'));
    expect(res.status).to.equal(417);
    expect(res.body).to.deep.equal({ type: 'error', error: { type: 'invalid_request_error', message: 'expect: bogus cannot be met; only 100-continue is' } });
  });

  it('keeps every header of a request with more than 1,000 (a content-length after them still counts)', async () => {
    const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    // One name repeated: Node joins them into one header, so the upstream gets one.
    const many = 'x-h: v\r\n'.repeat(1200);
    const answer = split(
      await exchange(port, `POST /claude/v1/messages HTTP/1.1\r\nhost: x\r\nconnection: close\r\nx-api-key: ${TEST_LICENSE}\r\nanthropic-version: 2023-06-01\r\ncontent-type: application/json\r\n${many}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
    );
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
  });
});

describe('answerClientError', () => {
  it("takes the family from the request in flight when the failing read holds no request line (a body stalled past requestTimeout)", () => {
    const socket = Object.assign(new PassThrough(), { _httpMessage: { req: { url: '/claude/v1/messages' }, headersSent: false } });
    let written = '';
    socket.on('data', (chunk: Buffer) => (written += chunk.toString()));
    answerClientError(Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket);
    const answer = split(written);
    expect(answer.status).to.equal(408);
    expect(answer.body).to.deep.equal({ type: 'error', error: { type: 'invalid_request_error', message: 'the request did not arrive whole in time' } });
  });

  it('writes nothing into an answer already begun: the connection is closed', () => {
    const socket = Object.assign(new PassThrough(), { _httpMessage: { req: { url: '/claude/v1/messages' }, headersSent: true } });
    let written = '';
    socket.on('data', (chunk: Buffer) => (written += chunk.toString()));
    answerClientError(Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }), socket);
    expect(written).to.equal('');
    expect(socket.destroyed).to.equal(true);
  });
});
