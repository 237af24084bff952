import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import OpenAI from 'openai';
import { MAX_EVENT_CHARS } from '../../../core/sse/max-event-chars';
import { fixtureText } from '../../helpers/fixtures';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../../helpers/start-raw-upstream';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  headersAtMs: number;
  body: string;
  failed: boolean;
}

/** A POST with timings, over a fresh connection, that reports a body cut short instead of throwing. */
function post(url: string, body: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' }, agent: false }, (res) => {
      const headersAtMs = performance.now() - started;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const done = (failed: boolean) => () => resolve({ status: res.statusCode ?? 0, headers: res.headers, headersAtMs, body: text, failed });
      res.on('end', done(false));
      res.on('error', done(true));
      res.on('aborted', done(true));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const CHAT = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };

describe('runPassthrough (through the gateway)', () => {
  let upstream: RawUpstream;
  let gw: RunningGateway;
  before(async () => {
    upstream = await startRawUpstream();
    gw = await startGateway({ openai: { plugin: 'openai', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  it('returns a non-streaming answer byte for byte with its content-length', async () => {
    const answer = '{"id":"chatcmpl-1","choices":[{"message":{"content":"héllo"}}]}';
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
    const res = await post(`${gw.url}/openai/v1/chat/completions`, CHAT);
    expect(res.status).to.equal(200);
    expect(res.body).to.equal(answer);
    expect(res.headers['content-length']).to.equal(String(Buffer.byteLength(answer)));
    expect(res.failed).to.equal(false);
  });

  it("keeps the client from choosing the operator's organisation or project, and sends a compressed body as it was read", async () => {
    let seen: { headers: http.IncomingHttpHeaders; body: string } | undefined;
    upstream.handle((req, res, body) => {
      seen = { headers: req.headers, body: body.toString() };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const res = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_LICENSE}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'openai-organization': 'org-someone-else',
        'openai-project': 'proj_other',
        'x-goog-user-project': 'other-gcp-project',
        'cf-connecting-ip': '203.0.113.9',
        'openai-beta': 'assistants=v2',
      },
      body: gzipSync(JSON.stringify(CHAT)),
    });
    expect(res.status).to.equal(200);
    for (const name of ['content-encoding', 'openai-organization', 'openai-project', 'x-goog-user-project', 'cf-connecting-ip']) expect(seen?.headers).not.to.have.property(name);
    // Vendor headers a client may choose still go.
    expect(seen?.headers['openai-beta']).to.equal('assistants=v2');
    expect(JSON.parse(seen?.body ?? '')).to.deep.equal(CHAT);
  });

  it('drops the connection when a non-streaming upstream body breaks off, so the client cannot take it as complete', async () => {
    upstream.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"id":"chatcmpl-1","choi');
      setTimeout(() => req.socket.destroy(), 20);
    });
    const res = await post(`${gw.url}/openai/v1/chat/completions`, CHAT);
    expect(res.failed).to.equal(true);
    expect(res.body.length).to.be.below(1000);
  });

  it('answers 502 in the client\'s error shape when a non-streaming body breaks off before its first byte (nothing was sent)', async () => {
    upstream.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.flushHeaders();
      setTimeout(() => req.socket.destroy(), 20);
    });
    const res = await post(`${gw.url}/openai/v1/chat/completions`, CHAT);
    expect(res.failed).to.equal(false);
    expect(res.status).to.equal(502);
    expect(JSON.parse(res.body)).to.have.nested.property('error.message').that.includes('connection');
  });

  it('sends a stream without a length, and its headers before a first event that is slow to come', async () => {
    const events = 'data: {"choices":[]}\n\ndata: [DONE]\n\n';
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': events.length });
      res.flushHeaders();
      setTimeout(() => res.end(events), 400);
    });
    const res = await post(`${gw.url}/openai/v1/chat/completions`, { ...CHAT, stream: true });
    expect(res.headersAtMs).to.be.below(300);
    expect(res.headers['content-length']).to.equal(undefined);
    expect(res.headers['content-type']).to.equal('text/event-stream');
    // As on the gateway's own streams, though the upstream sent neither: proxies must not cache or buffer it.
    expect(res.headers['cache-control']).to.equal('no-cache');
    expect(res.headers['x-accel-buffering']).to.equal('no');
    expect(res.body).to.equal(events);
  });

  it('answers a stream request the upstream answered with no stream as a 502, or as the error its JSON envelope says, through the SDK', async () => {
    const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
    const chunksOrError = async (create: () => Promise<AsyncIterable<unknown>>): Promise<number | { status?: number; message: string }> => {
      try {
        let n = 0;
        for await (const _chunk of await create()) n += 1;
        return n;
      } catch (error) {
        return { status: (error as { status?: number }).status, message: (error as Error).message };
      }
    };
    const chat = () => client.chat.completions.create({ ...CHAT, stream: true } as OpenAI.ChatCompletionCreateParamsStreaming);
    // A service that ignored `stream`: relayed, the SDK read it as a stream of no chunk that ended well.
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(fixtureText('openai-chat/response-basic.json'));
    });
    expect(await chunksOrError(chat)).to.deep.equal({ status: 502, message: '502 upstream answered a stream request with application/json, not a stream' });
    expect(await chunksOrError(() => client.responses.create({ model: 'gpt-4o-mini', input: 'hi', stream: true }))).to.include({ status: 502 });
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"This model does not support streaming","type":"invalid_request_error","param":"stream","code":null}}');
    });
    expect(await chunksOrError(chat)).to.deep.equal({ status: 400, message: '400 This model does not support streaming' });
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    expect(await chunksOrError(chat)).to.deep.equal({ status: 502, message: '502 upstream answered a stream request with text/html, not a stream' });
  });

  it('cuts a stream whose line never ends once it passes the event bound, rather than holding it whole (a few KB of gzip inflate to GBs)', async () => {
    const endless = gzipSync(Buffer.concat([Buffer.from('data: {"choices":[{"delta":{"content":"'), Buffer.alloc(40 * 1024 * 1024, 'a')]));
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(endless);
    });
    const res = await post(`${gw.url}/openai/v1/chat/completions`, { ...CHAT, stream: true });
    expect(res.status).to.equal(200);
    // Dropped inside the line, as any stream cut there is: an error event glued onto it would be bad JSON.
    expect(res.failed).to.equal(true);
    expect(res.body.length).to.be.below(MAX_EVENT_CHARS + 64 * 1024);
  });

  it('passes many events sent at once through unchanged and in order', async () => {
    const events = Array.from({ length: 50 }, (_, i) => `data: {"i":${i}}\n\n`).join('') + 'data: [DONE]\n\n';
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.cork();
      for (const line of events.split(/(?<=\n\n)/)) res.write(line);
      res.end();
      res.uncork();
    });
    const res = await post(`${gw.url}/openai/v1/chat/completions`, { ...CHAT, stream: true });
    expect(res.body).to.equal(events);
  });

  it('masks the key the call sent wherever the upstream echoes it, in a stream and in a whole body of the same length', async () => {
    const key = 'sk-test-0123456789abcdef';
    const masked = `sk-${'*'.repeat(key.length - 7)}cdef`;
    const first = 'data: {"choices":[{"delta":{"content":"hi"}}]}\n\n';
    const echo = `data: {"error":{"message":"invalid request; headers: {'authorization': 'Bearer ${key}'}"}}\n\n`;
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(first);
      // The key cut in two by the chunks: each half alone is no key.
      const cut = echo.indexOf(key) + 10;
      setTimeout(() => res.write(echo.slice(0, cut)), 10);
      setTimeout(() => res.end(echo.slice(cut)), 30);
    });
    const streamed = await post(`${gw.url}/openai/v1/chat/completions`, { ...CHAT, stream: true });
    expect(streamed.body).to.equal(first + echo.replace(key, masked));

    const whole = `{"id":"x","echo":"${key}"}`;
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(whole), 'x-debug-auth': `Bearer ${key}` });
      res.end(whole);
    });
    const answered = await post(`${gw.url}/openai/v1/chat/completions`, CHAT);
    expect(answered.failed).to.equal(false);
    expect(answered.body).to.equal(whole.replace(key, masked));
    expect(answered.headers['content-length']).to.equal(String(Buffer.byteLength(whole)));
    // A header echoing it too.
    expect(answered.headers['x-debug-auth']).to.equal('Bearer sk-...cdef');
  });

  it('ends a Responses stream cut mid-way with an error event that continues its numbering', async () => {
    const relayed = fixtureText('openai-responses/stream-basic.sse').split(/(?<=\n\n)/).slice(0, 6).join('');
    upstream.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(relayed);
      setTimeout(() => req.socket.destroy(), 20);
    });
    const res = await post(`${gw.url}/openai/v1/responses`, { model: 'gpt-4.1-mini', input: 'hi', stream: true });
    expect(res.body.startsWith(relayed)).to.equal(true);
    const numbers = [...relayed.matchAll(/"sequence_number":(\d+)/g)].map((match) => Number(match[1]));
    const error = res.body.slice(relayed.length);
    expect(error).to.match(/^event: error\ndata: /);
    expect(JSON.parse(error.slice(error.indexOf('{')))).to.deep.include({ type: 'error', sequence_number: Math.max(...numbers) + 1 });
  });

  describe('an SSE stream that breaks off between or inside events (through the OpenAI SDK)', () => {
    const chunk = (text: string) => `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"${text}"},"finish_reason":null}]}`;

    /** What the SDK got: the text deltas it parsed, and the error it raised. */
    function breakAfter(relayed: string): void {
      upstream.handle((req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(relayed);
        setTimeout(() => req.socket.destroy(), 20);
      });
    }

    async function streamThroughSdk(relayed: string): Promise<{ texts: string[]; error: string }> {
      breakAfter(relayed);
      const client = new OpenAI({ baseURL: `${gw.url}/openai/v1`, apiKey: TEST_LICENSE, maxRetries: 0 });
      const texts: string[] = [];
      try {
        const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
        for await (const part of stream) texts.push(part.choices[0]?.delta.content ?? '');
      } catch (error) {
        return { texts, error: String(error) };
      }
      return { texts, error: '' };
    }

    for (const [style, eol] of [['LF', '\n'], ['CRLF', '\r\n']] as const) {
      it(`ends an event left open after a whole line (${style}) before its error event, so the SDK raises the upstream's failure`, async () => {
        const relayed = `${chunk('Hel')}${eol}${eol}${chunk('lo')}${eol}`;
        const { texts, error } = await streamThroughSdk(relayed);
        expect(texts).to.deep.equal(['Hel', 'lo']);
        expect(error).to.match(/connection lost|ECONNRESET|socket/i);
        expect(error).not.to.match(/JSON/);
      });
    }

    it('drops the connection when the stream stops inside a line, rather than glue an error event onto it', async () => {
      const relayed = `${chunk('Hel')}\n\n${chunk('wor').slice(0, -40)}`;
      breakAfter(relayed);
      const res = await post(`${gw.url}/openai/v1/chat/completions`, { ...CHAT, stream: true });
      expect(res.failed).to.equal(true);
      expect(res.body).to.equal(relayed);
      const { texts, error } = await streamThroughSdk(relayed);
      expect(texts).to.deep.equal(['Hel']);
      expect(error).not.to.match(/JSON/);
    });
  });
});

describe('runPassthrough: a Gemini JSON-array stream that breaks off', () => {
  let upstream: RawUpstream;
  let gw: RunningGateway;
  before(async () => {
    upstream = await startRawUpstream();
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: upstream.url, credentials: [{ apiKey: 'AIzaSyPASSTHROUGHspecKEY00000000000001' }] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  const ELEMENT = '{"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]},"index":0}]}';
  const STREAM_URL = '/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent';
  const ASK = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
  /** The upstream writes `sent`, then its connection resets. */
  const breakAfter = (sent: string, contentType = 'application/json; charset=UTF-8') =>
    upstream.handle((req, res) => {
      res.writeHead(200, { 'content-type': contentType });
      res.write(sent);
      setTimeout(() => req.socket.destroy(), 20);
    });

  for (const [when, sent] of [['after an element', `[${ELEMENT}`], ['after the comma that follows one', `[${ELEMENT},\r\n`], ['right after the opening bracket', '[']] as const) {
    it(`ends the array with an error element when it breaks ${when}, so the body is still JSON`, async () => {
      breakAfter(sent);
      const res = await post(`${gw.url}${STREAM_URL}`, ASK);
      expect(res.failed).to.equal(false);
      expect(res.body.startsWith(sent)).to.equal(true);
      const elements = JSON.parse(res.body) as Array<{ error?: { code: number; status: string; message: string } }>;
      expect(elements.at(-1)?.error).to.include({ code: 502, status: 'INTERNAL' });
      expect(elements.at(-1)?.error?.message).to.include('connection lost');
    });
  }

  it('drops the connection when it breaks inside an element, which no ending can make JSON', async () => {
    breakAfter(`[${ELEMENT.slice(0, 30)}`);
    const res = await post(`${gw.url}${STREAM_URL}`, ASK);
    expect(res.failed).to.equal(true);
    expect(res.body).to.equal(`[${ELEMENT.slice(0, 30)}`);
  });

  it('answers an alt=sse request the upstream answered with a JSON array as a 502: the SSE client would read no event', async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(`[${ELEMENT}]`);
    });
    const res = await post(`${gw.url}${STREAM_URL}?alt=sse`, ASK);
    expect(res.status).to.equal(502);
    expect(JSON.parse(res.body)).to.have.nested.property('error.status', 'INTERNAL');
    // Without alt=sse the array is the stream the client asked for.
    expect((await post(`${gw.url}${STREAM_URL}`, ASK)).body).to.equal(`[${ELEMENT}]`);
  });

  it('still ends an alt=sse stream with an SSE error event', async () => {
    breakAfter(`data: ${ELEMENT}\r\n\r\n`, 'text/event-stream');
    const res = await post(`${gw.url}${STREAM_URL}?alt=sse`, ASK);
    expect(res.failed).to.equal(false);
    const last = res.body.trim().split(/\r?\n\r?\n/).at(-1)!;
    expect(JSON.parse(last.replace(/^data: /, ''))).to.have.nested.property('error.code', 502);
  });
});
