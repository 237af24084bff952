import Anthropic from '@anthropic-ai/sdk';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import nock from 'nock';
import OpenAI from 'openai';
import { fixtureText } from '../../helpers/fixtures';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../../helpers/start-raw-upstream';
import { chatCompletionBody } from '../../helpers/chat-completion';

async function postMessages(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}


// Long enough for the ICU path (4 KB and more, not ASCII), with characters of every UTF-8 width.
const LONG_TEXT = 'café au lait, 漢字, 😀 and plain words. '.repeat(3000);

describe('runTranslation (Messages client → Chat Completions upstream, through the gateway)', () => {
  let upstream: RawUpstream;
  let gw: RunningGateway;
  /** The body of the last request the upstream received. */
  let received = '';
  /** The upstream answers the following requests with this status and body, as JSON. */
  const answer = (status: number, body: string): void =>
    upstream.handle((_req, res, sent) => {
      received = sent.toString('utf8');
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
  before(async () => {
    upstream = await startRawUpstream();
    gw = await startGateway({ openai: { plugin: 'openai', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  it('carries a long conversation that is not ASCII upstream unchanged, and a long answer back', async () => {
    answer(200, chatCompletionBody(LONG_TEXT));
    const res = await postMessages(`${gw.url}/openai/v1/messages`, { model: 'gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user', content: LONG_TEXT }] });
    expect(res.status).to.equal(200);
    const sent = JSON.parse(received) as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(sent.messages)).to.include(JSON.stringify(LONG_TEXT));
    expect(res.json.content).to.deep.equal([{ type: 'text', text: LONG_TEXT }]);
  });

  it('masks the key the call sent wherever the answer echoes it, whole and streamed (split across reads)', async () => {
    const key = 'sk-test-0123456789abcdef';
    const masked = `sk-${'*'.repeat(key.length - 7)}cdef`;
    answer(200, chatCompletionBody(`your key is ${key}`));
    const whole = await postMessages(`${gw.url}/openai/v1/messages`, { model: 'gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(whole.status).to.equal(200);
    expect(whole.json.content).to.deep.equal([{ type: 'text', text: `your key is ${masked}` }]);

    const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const events = chunk({ role: 'assistant', content: `key ${key}` }) + chunk({}, 'stop') + 'data: [DONE]\n\n';
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // The key cut in two by the reads: each half alone is no key.
      const cut = events.indexOf(key) + 10;
      res.write(events.slice(0, cut));
      setTimeout(() => res.end(events.slice(cut)), 20);
    });
    const streamed = await fetch(`${gw.url}/openai/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await streamed.text();
    expect(text).to.not.include(key.slice(3, -4));
    expect(text).to.include(JSON.stringify(`key ${masked}`).slice(1, -1));
    expect(text).to.include('message_stop');
  });

  it('answers 502 in the client\'s error shape when the upstream answers a body that is not JSON', async () => {
    answer(200, '<html>upstream busy</html>');
    const res = await postMessages(`${gw.url}/openai/v1/messages`, { model: 'gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).to.equal(502);
    expect(res.json.type).to.equal('error');
    expect((res.json.error as { message: string }).message).to.include('upstream answered a body that is not JSON');
  });

  it("answers a stream refused with a 200 JSON error envelope with that error, its message kept (it was a framing 502)", async () => {
    answer(200, JSON.stringify({ error: { message: 'model overloaded, try later', type: 'server_error', code: 'overloaded' } }));
    const res = await postMessages(`${gw.url}/openai/v1/messages`, { model: 'gpt-4o-mini', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.json.type).to.equal('error');
    expect((res.json.error as { message: string }).message).to.equal('model overloaded, try later');
    // A JSON body that is no error envelope is still the framing error.
    answer(200, JSON.stringify({ id: 'x', choices: [] }));
    const other = await postMessages(`${gw.url}/openai/v1/messages`, { model: 'gpt-4o-mini', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(other.status).to.equal(502);
    expect((other.json.error as { message: string }).message).to.include('not a stream');
  });

  it('ends the client stream with an error once the event passes its bound, the rest unread (a gzip bomb)', async () => {
    // ~40 KB on the wire, 48 MB inflated, all one line.
    const bomb = gzipSync(Buffer.from(`data: {"choices":[{"delta":{"content":"${'x'.repeat(48 * 1024 * 1024)}`));
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const client = new Anthropic({ baseURL: `${gw.url}/openai`, apiKey: TEST_LICENSE, maxRetries: 0 });
    const error = await client.messages
      .stream({ model: 'gpt-4.1', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage()
      .catch((caught: unknown) => caught);
    expect(String(error)).to.include('upstream stream event exceeds 32 MB');
  });
});

describe('runTranslation: a Gemini upstream that answers a stream request with JSON, not SSE', () => {
  let upstream: RawUpstream;
  let gw: RunningGateway;
  const answer = (body: string): void =>
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(body);
    });
  const streamChat = () =>
    fetch(`${gw.url}/gemini/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gemini-2.5-flash', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
  before(async () => {
    upstream = await startRawUpstream();
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: upstream.url, credentials: [{ apiKey: 'AIzaSyRUNtranslationSPECkey000000000001' }] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  for (const [what, body, message] of [
    ['an object', '{}', "upstream JSON array stream: expected '[' but got \"{\""],
    ['an empty array', '[]', 'upstream Gemini stream ended before any chunk'],
    // Said as a cut SSE stream is, where it named the missing ']' and read a cut object as no array.
    ['an array cut inside its first element', '[{"candidates":[{"content":', 'upstream stream ended before the response was complete'],
    ['an error envelope cut short', '{"error":{"code":429,"mess', 'upstream stream ended before the response was complete'],
  ] as const) {
    it(`answers 502 in the client's shape, not a 200 stream, when the JSON is ${what}`, async () => {
      answer(body);
      const res = await streamChat();
      expect(res.status).to.equal(502);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(((await res.json()) as { error: { message: string } }).error.message).to.equal(message);
    });
  }

  it('still translates a JSON array stream, its status and headers sent with the first event', async () => {
    answer(fixtureText('gemini/stream-array.json'));
    const res = await streamChat();
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    const text = await res.text();
    expect(text).to.match(/^data: \{"id":"chatcmpl-/);
    expect(text.trimEnd().endsWith('data: [DONE]')).to.equal(true);
  });
});

describe('runTranslation: a stream ends at the upstream\'s end marker, not when the upstream closes the body', () => {
  let upstream: RawUpstream;
  let gw: RunningGateway;
  /** The upstream's client port of each request: one port is one (kept-alive) connection. */
  let ports: number[] = [];
  /** Serves `sse` as a stream, holding the body open for `holdMs` after it before ending it. */
  const serve = (sse: string, holdMs: number): void =>
    upstream.handle((req, res) => {
      ports.push(req.socket.remotePort ?? 0);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse);
      setTimeout(() => res.end(), holdMs).unref();
    });
  before(async () => {
    upstream = await startRawUpstream();
    gw = await startGateway({
      // A short idle timeout: waiting for the held body would turn a complete answer into a timeout error.
      claude: { plugin: 'claude', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-ant-api03-test-0123456789' }], timeouts: { idleMs: 1000 } },
      openai: { plugin: 'openai', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-test-0123456789abcdef' }], timeouts: { idleMs: 1000 } },
    } as never);
  });
  beforeEach(() => (ports = []));
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  it('Messages upstream held open after message_stop: the chat client has its whole answer at once', async () => {
    serve(fixtureText('anthropic-messages/stream-basic.sse'), 3000);
    const client = new OpenAI({ baseURL: `${gw.url}/claude/v1`, apiKey: TEST_LICENSE, maxRetries: 0 });
    const started = performance.now();
    const stream = client.chat.completions.stream({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] });
    const completion = await stream.finalChatCompletion();
    expect(performance.now() - started).to.be.below(900);
    expect(completion.choices[0].finish_reason).to.equal('stop');
    expect(completion.choices[0].message.content).to.be.a('string').and.not.equal('');
  });

  it('chat upstream held open after [DONE]: the Messages client has its whole answer at once', async () => {
    serve(fixtureText('openai-chat/stream-basic.sse'), 3000);
    const client = new Anthropic({ baseURL: `${gw.url}/openai`, apiKey: TEST_LICENSE, maxRetries: 0 });
    const started = performance.now();
    const message = await client.messages.stream({ model: 'gpt-4.1-mini', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(performance.now() - started).to.be.below(900);
    expect(message.stop_reason).to.equal('end_turn');
    expect(message.content.map((block) => (block.type === 'text' ? block.text : block.type))).to.deep.equal(['Hello, nice to meet you!']);
  });

  it('an upstream that ends its body just after the marker keeps its connection for the next request', async () => {
    serve(fixtureText('openai-chat/stream-basic.sse'), 0);
    const client = new Anthropic({ baseURL: `${gw.url}/openai`, apiKey: TEST_LICENSE, maxRetries: 0 });
    // nock's interception gives every request a socket of its own: without it, the agent's pool is seen.
    nock.restore();
    try {
      for (let i = 0; i < 3; i += 1) {
        await client.messages.stream({ model: 'gpt-4.1-mini', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
        // The client has its answer before the upstream's body has ended (its last bytes come a moment later): a
        // request sent at once would find the connection still busy, and take another.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      nock.activate();
    }
    expect(ports).to.have.length(3);
    expect(new Set(ports).size).to.equal(1);
  });
});
