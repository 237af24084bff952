import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { expect } from 'chai';
import { Stage, type UpstreamRequest } from '@gateway/core';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../helpers/start-gateway';
import { chatCompletionBody } from '../../helpers/chat-completion';

/**
 * While the upstream answers, nothing in the gateway may hold the parsed request, and while an answer streams,
 * not even its bytes: with long conversations that garbage would otherwise survive young-generation collections
 * and pile up in the old generation (peak RSS), or stay for the whole life of a long stream. Probe taps keep
 * WeakRefs to the parsed body and to the bytes sent upstream; a full GC is forced while the upstream holds.
 */

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

interface HeldUpstream {
  url: string;
  /** Runs `whileHeld` once the gateway's request has fully arrived, then answers with `answer`. */
  hold(whileHeld: () => void, answer: (res: http.ServerResponse) => void): void;
  close(): Promise<void>;
}

async function startHeldUpstream(): Promise<HeldUpstream> {
  let onRequest: (res: http.ServerResponse) => void = (res) => res.end();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => onRequest(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold(whileHeld, answer) {
      // A fresh macrotask: the gateway's frames have settled into awaiting the answer.
      onRequest = (res) => setImmediate(() => {
        whileHeld();
        answer(res);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

const CHAT_ANSWER = chatCompletionBody('ok');

const CHAT_STREAM = [
  { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }] },
  { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
]
  .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
  .concat('data: [DONE]\n\n')
  .join('');

const LONG_TEXT = 'a long conversation '.repeat(500);

describe('request lifetime: the parsed request is collectable while the upstream answers', () => {
  let upstream: HeldUpstream;
  let gw: RunningGateway;
  /** WeakRefs to what the last request parsed, taken by the probe tap. */
  let probes: Array<WeakRef<object>> = [];
  /** WeakRefs to the bytes the last request sent upstream. */
  let sent: Array<WeakRef<object>> = [];
  /** The keys of the requests the requestTransform taps were handed. */
  let keys: string[][] = [];

  before(async () => {
    upstream = await startHeldUpstream();
    gw = await startGateway({ openai: { plugin: 'openai', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] } });
    gw.gateway.runtime.hooks.requestTransform.for('openai').tapPromise({ name: 'lifetime-probe', stage: Stage.AFTER_PLATFORM }, async (request: UpstreamRequest) => {
      keys.push(Object.keys(request).sort());
      if (request.json) probes.push(new WeakRef(request.json));
      if (request.unified) probes.push(new WeakRef(request.unified.messages));
      return request;
    });
    // Sees the bytes and lets the platform's own tap send them.
    gw.gateway.runtime.hooks.upstreamCall.for('openai').tapPromise({ name: 'lifetime-probe', stage: Stage.BEFORE_PLATFORM }, async (request: UpstreamRequest) => {
      if (request.body) sent.push(new WeakRef(request.body));
      return undefined;
    });
  });
  beforeEach(() => {
    probes = [];
    sent = [];
    keys = [];
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  /** Forces a full GC while the upstream holds its answer, and reports how many probed objects were still alive. */
  function holdAndCount(answer: (res: http.ServerResponse) => void): { alive: number | undefined } {
    const seen: { alive: number | undefined } = { alive: undefined };
    upstream.hold(() => {
      collectGarbage();
      seen.alive = probes.filter((ref) => ref.deref() !== undefined).length;
    }, answer);
    return seen;
  }

  it('passthrough: the parsed body is not held once its bytes have gone upstream', async () => {
    const seen = holdAndCount((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(CHAT_ANSWER));
    const res = await post(`${gw.url}/openai/v1/chat/completions`, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: LONG_TEXT }] });
    expect(res.status).to.equal(200);
    expect(res.text).to.equal(CHAT_ANSWER);
    expect(probes).to.have.length(1);
    expect(seen.alive).to.equal(0);
  });

  it('translated, non-streaming: the conversation is not held while the answer is awaited', async () => {
    const seen = holdAndCount((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(CHAT_ANSWER));
    const res = await post(`${gw.url}/openai/v1/messages`, { model: 'gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: LONG_TEXT }] }, { 'anthropic-version': '2023-06-01' });
    expect(res.status).to.equal(200);
    expect(JSON.parse(res.text)).to.include({ type: 'message', model: 'gpt-4o-mini' });
    expect(probes).to.have.length(1);
    expect(seen.alive).to.equal(0);
  });

  it('passthrough, streaming: neither the client bytes nor the bytes sent upstream are held while the answer streams', async () => {
    let release: () => void = () => {};
    upstream.hold(() => {}, (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(CHAT_STREAM.slice(0, CHAT_STREAM.indexOf('\n\n') + 2));
      release = () => res.end(CHAT_STREAM.slice(CHAT_STREAM.indexOf('\n\n') + 2));
    });
    const res = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: LONG_TEXT }] }),
    });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).to.include('"content":"ok"');
    expect(sent).to.have.length(1);
    collectGarbage();
    const alive = [...probes, ...sent].filter((ref) => ref.deref() !== undefined).length;
    release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).to.include('[DONE]');
    expect(alive).to.equal(0);
  });

  it('hands requestTransform taps a request with every key present, so their `{ ...request, key }` copies stay fast', async () => {
    const every = ['body', 'format', 'headers', 'json', 'method', 'mode', 'path', 'stream', 'unified'];
    for (const [path, body, headers] of [
      ['/openai/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }, {}],
      ['/openai/v1/messages', { model: 'gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' }],
    ] as const) {
      holdAndCount((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(CHAT_ANSWER));
      expect((await post(`${gw.url}${path}`, body, headers)).status).to.equal(200);
    }
    expect(keys).to.deep.equal([every, every]);
  });

  it('translated, streaming: the conversation is not held while the stream is awaited', async () => {
    const seen = holdAndCount((res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(CHAT_STREAM));
    const res = await post(`${gw.url}/openai/v1/messages`, { model: 'gpt-4o-mini', max_tokens: 16, stream: true, messages: [{ role: 'user', content: LONG_TEXT }] }, { 'anthropic-version': '2023-06-01' });
    expect(res.status).to.equal(200);
    expect(res.text).to.include('event: message_stop');
    expect(probes).to.have.length(1);
    expect(seen.alive).to.equal(0);
  });
});
