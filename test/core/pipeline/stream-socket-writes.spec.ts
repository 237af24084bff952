import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import { fixtureText } from '../../helpers/fixtures';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../../helpers/start-raw-upstream';

type WriteGeneric = (this: net.Socket, ...args: unknown[]) => unknown;
const socketProto = net.Socket.prototype as unknown as { _writeGeneric: WriteGeneric };

/**
 * POSTs over a fresh connection and counts the socket writes the gateway made to answer it (net.Socket's
 * `_writeGeneric`, one per write or writev syscall), on the gateway's side of that connection.
 */
async function countAnswerWrites(url: string, body: unknown): Promise<{ writes: number; text: string }> {
  const original = socketProto._writeGeneric;
  let clientPort = -1;
  let writes = 0;
  socketProto._writeGeneric = function (this: net.Socket, ...args: unknown[]) {
    if (this.remotePort === clientPort) writes += 1;
    return original.apply(this, args);
  };
  try {
    const text = await new Promise<string>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' }, agent: false }, (res) => {
        let received = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (received += chunk));
        res.on('end', () => resolve(received));
      });
      req.on('socket', (socket) => socket.on('connect', () => (clientPort = socket.localPort ?? -1)));
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
    return { writes, text };
  } finally {
    socketProto._writeGeneric = original;
  }
}

/** The end of a stream leaves with its last bytes: one socket write fewer for every stream (the chunked terminator's own). */
describe('a stream answer leaves in as few socket writes as its arrival allows', () => {
  let upstream: RawUpstream;
  let gw: RunningGateway;
  before(async () => {
    upstream = await startRawUpstream();
    gw = await startGateway({
      openai: { plugin: 'openai', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-socket-writes-0000000001' }] },
      claude: { plugin: 'claude', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-ant-api03-socket-writes-01' }] },
    });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });
  const CHAT = { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] };
  const EVENTS = Array.from({ length: 5 }, (_, i) => `data: {"choices":[{"index":0,"delta":{"content":"${i}"},"finish_reason":null}]}\n\n`).join('') + 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

  it('passthrough: a whole answer in one upstream read is one write, headers and end included (two before)', async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': Buffer.byteLength(EVENTS) });
      res.end(EVENTS);
    });
    const { writes, text } = await countAnswerWrites(`${gw.url}/openai/v1/chat/completions`, CHAT);
    expect(text).to.equal(EVENTS);
    expect(writes).to.equal(1);
  });

  it('passthrough: a first event alone, then the rest, is two writes: the first at once, the rest with the end (three before)', async () => {
    upstream.handle((_req, res) => {
      const [first, ...rest] = EVENTS.split(/(?<=\n\n)/);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(first);
      setTimeout(() => res.end(rest.join('')), 30);
    });
    const { writes, text } = await countAnswerWrites(`${gw.url}/openai/v1/chat/completions`, CHAT);
    expect(text).to.equal(EVENTS);
    expect(writes).to.equal(2);
  });

  it('passthrough: headers sent a moment before the first event leave with it (headers alone, then the event, before)', async () => {
    upstream.handle((_req, res) => {
      const [first, ...rest] = EVENTS.split(/(?<=\n\n)/);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      setTimeout(() => res.write(first), 1);
      setTimeout(() => res.end(rest.join('')), 30);
    });
    const { writes, text } = await countAnswerWrites(`${gw.url}/openai/v1/chat/completions`, CHAT);
    expect(text).to.equal(EVENTS);
    expect(writes).to.equal(2);
  });

  it('translated (Claude to chat): a whole answer in one upstream read is two writes, its first event at once and the rest with the end (three before)', async () => {
    const sse = fixtureText('anthropic-messages/stream-basic.sse');
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': Buffer.byteLength(sse) });
      res.end(sse);
    });
    const { writes, text } = await countAnswerWrites(`${gw.url}/claude/v1/chat/completions`, { ...CHAT, model: 'claude-sonnet-4-6' });
    expect(text.trimEnd().endsWith('data: [DONE]')).to.equal(true);
    expect(writes).to.equal(2);
  });
});
