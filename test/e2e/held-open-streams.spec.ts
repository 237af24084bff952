import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import { fixtureText } from '../helpers/fixtures';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../helpers/start-raw-upstream';

/** The platforms' stream idle timeout in these tests: an answer that waits for it takes at least this long. */
const IDLE_MS = 1500;

/**
 * An upstream that sends a whole stream, end marker included, then holds the body open. The answer is complete: the
 * client gets it as such, at once where the format has an end marker, never followed by a timeout error.
 */
describe('e2e: an upstream that holds a stream open after its last event (SDKs → gateway → raw upstream)', function () {
  this.timeout(20_000);
  let upstream: RawUpstream;
  let gw: RunningGateway;
  const timeouts = { idleMs: IDLE_MS };
  before(async () => {
    upstream = await startRawUpstream();
    gw = await startGateway({
      claude: { plugin: 'claude', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-ant-api03-held-open-0000000000000001' }], timeouts },
      openai: { plugin: 'openai', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-held-open-0000000000000001' }], timeouts },
      gemini: { plugin: 'gemini', baseUrl: upstream.url, credentials: [{ apiKey: 'AIzaSy-held-open-00000000000000001' }], timeouts },
    });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  /** Every request is answered with `stream` and its body left open. */
  function holdOpenAfter(stream: string): void {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(stream);
    });
  }

  async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
    const started = Date.now();
    const value = await run();
    return { value, ms: Date.now() - started };
  }

  it('claude passthrough: the Anthropic SDK gets the whole message at message_stop, no timeout error', async () => {
    holdOpenAfter(fixtureText('anthropic-messages/stream-basic.sse'));
    const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude`, maxRetries: 0 });
    const { value, ms } = await timed(() => client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage());
    expect(value.stop_reason).to.equal('end_turn');
    expect(ms).to.be.below(IDLE_MS);
  });

  it('openai passthrough: the openai SDK gets the completed response at response.completed', async () => {
    holdOpenAfter(fixtureText('openai-responses/stream-basic.sse'));
    const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
    const { value, ms } = await timed(async () => {
      const events: string[] = [];
      for await (const event of await client.responses.create({ model: 'gpt-4.1', input: 'hi', stream: true })) events.push(event.type);
      return events;
    });
    expect(value.at(-1)).to.equal('response.completed');
    expect(ms).to.be.below(IDLE_MS);
  });

  it('openai passthrough: a chat stream ends at [DONE], its bytes as the upstream sent them', async () => {
    const stream = fixtureText('openai-chat/stream-basic.sse');
    holdOpenAfter(stream);
    const { value, ms } = await timed(async () => {
      const res = await fetch(`${gw.url}/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      });
      return res.text();
    });
    expect(value).to.equal(stream);
    expect(ms).to.be.below(IDLE_MS);
  });

  const anthropicStream = fixtureText('anthropic-messages/stream-basic.sse');
  for (const [name, platform, model, stream] of [
    ['gemini translated: a stream held open after its finishReason', 'gemini', 'gemini-2.5-flash', fixtureText('gemini/stream-basic.sse')],
    ['claude translated: a stream held open after message_delta (stop_reason and usage given, message_stop owed)', 'claude', 'claude-sonnet-4-6', anthropicStream.slice(0, anthropicStream.indexOf('event: message_stop'))],
  ] as const) {
    it(`${name} ends as the finished answer, not an error`, async () => {
      holdOpenAfter(stream);
      const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/${platform}/v1`, maxRetries: 0 });
      const finishes: Array<string | null> = [];
      for await (const chunk of await client.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] })) {
        finishes.push(chunk.choices[0]?.finish_reason ?? null);
      }
      expect(finishes).to.include('stop');
    });
  }

  it('openai translated: a chat stream held open after its finish_reason chunk ([DONE] owed) ends as the finished answer', async () => {
    const stream = fixtureText('openai-chat/stream-basic.sse');
    holdOpenAfter(stream.slice(0, stream.indexOf('data: [DONE]')));
    const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai`, maxRetries: 0 });
    const message = await client.messages.stream({ model: 'gpt-4.1', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(message.stop_reason).to.equal('end_turn');
  });

  it('openai passthrough: a chat stream held open after its finish_reason chunk, [DONE] never sent, ends as the finished answer', async () => {
    const stream = fixtureText('openai-chat/stream-basic.sse');
    const head = stream.slice(0, stream.indexOf('data: [DONE]'));
    holdOpenAfter(head);
    const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
    const finishes: Array<string | null> = [];
    for await (const chunk of await client.chat.completions.create({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] })) {
      finishes.push(chunk.choices[0]?.finish_reason ?? null);
    }
    expect(finishes).to.include('stop');
    // The bytes as sent, then the [DONE] the upstream owed.
    const raw = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    }).then((res) => res.text());
    expect(raw).to.equal(`${head}data: [DONE]\n\n`);
  });

  it('openai passthrough: a chat stream stalled after an empty finish_reason, or after one choice of two finished, ends in an error, not [DONE]', async () => {
    const chunk = (choices: unknown[]) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices })}\n\n`;
    const post = (extra: Record<string, unknown>) =>
      fetch(`${gw.url}/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }], ...extra }),
      }).then((res) => res.text());
    holdOpenAfter(chunk([{ index: 0, delta: { content: 'Hel' }, finish_reason: '' }]));
    const empty = await post({});
    expect(empty).to.include('gw_upstream_timeout').and.not.include('[DONE]');
    holdOpenAfter(chunk([{ index: 1, delta: {}, finish_reason: 'stop' }]) + chunk([{ index: 0, delta: { content: 'still' }, finish_reason: null }]));
    const two = await post({ n: 2 });
    expect(two).to.include('gw_upstream_timeout').and.not.include('[DONE]');
  });

  it('openai passthrough: a chat stream with n=2 held open after both choices finished ends as the finished answer, with its [DONE]', async () => {
    const chunk = (choices: unknown[]) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices })}\n\n`;
    const head =
      chunk([{ index: 0, delta: { content: 'A' }, finish_reason: null }, { index: 1, delta: { content: 'B' }, finish_reason: null }]) +
      chunk([{ index: 1, delta: {}, finish_reason: 'stop' }]) +
      chunk([{ index: 0, delta: {}, finish_reason: 'length' }]);
    holdOpenAfter(head);
    const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
    const finishes: Record<number, string | null> = {};
    const stream = await client.chat.completions.create({ model: 'gpt-4.1', stream: true, n: 2, messages: [{ role: 'user', content: 'hi' }] }, { timeout: 5000 });
    for await (const part of stream) for (const choice of part.choices) finishes[choice.index] = choice.finish_reason ?? finishes[choice.index] ?? null;
    expect(finishes).to.deep.equal({ 0: 'length', 1: 'stop' });
    const raw = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1', stream: true, n: 2, messages: [{ role: 'user', content: 'hi' }] }),
    }).then((res) => res.text());
    expect(raw).to.equal(`${head}data: [DONE]\n\n`);
    // Closed right after the last finish's data line, its blank line never sent: ended, with the [DONE] owed.
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(head.slice(0, -1));
    });
    const closed = await fetch(`${gw.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1', stream: true, n: 2, messages: [{ role: 'user', content: 'hi' }] }),
    }).then((res) => res.text());
    expect(closed).to.equal(`${head}data: [DONE]\n\n`);
  });

  describe('a translated stream the upstream closes cleanly inside a line after its finish', () => {
    const closeAfter = (stream: string): void =>
      upstream.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(stream);
      });

    it('Messages client on a chat upstream, closed inside the usage chunk or [DONE]: the finished answer, no error', async () => {
      const stream = fixtureText('openai-chat/stream-basic.sse');
      const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai`, maxRetries: 0 });
      for (const cut of [stream.indexOf('"prompt_tokens":24') + 10, stream.indexOf('data: [DONE]') + 9]) {
        closeAfter(stream.slice(0, cut));
        const message = await client.messages.stream({ model: 'gpt-4.1', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
        expect(message.stop_reason, `cut at ${cut}`).to.equal('end_turn');
        expect(message.content).to.deep.equal([{ type: 'text', text: 'Hello, nice to meet you!' }]);
      }
    });

    it('chat client on Claude, closed inside message_stop: finish_reason stop, no error; closed inside the finish line itself: an error', async () => {
      const stream = fixtureText('anthropic-messages/stream-basic.sse');
      const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude/v1`, maxRetries: 0 });
      const run = async (cut: number): Promise<string> => {
        closeAfter(stream.slice(0, cut));
        let finish = 'none';
        try {
          for await (const chunk of await client.chat.completions.create({ model: 'claude-sonnet-4-6', stream: true, messages: [{ role: 'user', content: 'hi' }] })) finish = chunk.choices[0]?.finish_reason ?? finish;
        } catch (error) {
          return `error: ${String(error)}`;
        }
        return finish;
      };
      expect(await run(stream.indexOf('{"type":"message_stop"}') + 10)).to.equal('stop');
      expect(await run(stream.indexOf('"stop_reason":"end_turn"') + 5)).to.match(/^error: .*upstream stream/);
    });

    it('Gemini upstream answering a stream with a 200 JSON error object (not an array): its error and status reach the client', async () => {
      const body = fixtureText('gemini/error-429.json');
      upstream.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      });
      const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/gemini/v1`, maxRetries: 0 });
      const error = await client.chat.completions.create({ model: 'gemini-2.5-flash', stream: true, messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).to.equal(429);
      expect(String((error as Error).message)).to.include('You exceeded your current quota');
    });
  });

  describe('a passthrough stream the upstream closes before its answer is whole', () => {
    const closeAfter = (stream: string): void =>
      upstream.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(stream);
      });
    const post = (path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      fetch(`${gw.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then((res) => res.text());

    it('chat, closed with no finish_reason and no [DONE]: ends with an error event, not as a complete answer', async () => {
      const head = 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n';
      closeAfter(head);
      const text = await post('/openai/v1/chat/completions', { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      expect(text.startsWith(head)).to.equal(true);
      expect(text.slice(head.length)).to.match(/^data: \{"error":\{"message":"upstream stream ended before the response was complete"/);
      // Closed after its finish_reason: whole, with the [DONE] it owed.
      const stream = fixtureText('openai-chat/stream-basic.sse');
      const finished = stream.slice(0, stream.indexOf('data: [DONE]'));
      closeAfter(finished);
      expect(await post('/openai/v1/chat/completions', { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] })).to.equal(`${finished}data: [DONE]\n\n`);
    });

    it('messages, closed after message_delta: the Anthropic SDK gets the whole message (message_stop owed is added); closed before it, an error', async () => {
      const stream = fixtureText('anthropic-messages/stream-basic.sse');
      closeAfter(stream.slice(0, stream.indexOf('event: message_stop')));
      const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude`, maxRetries: 0 });
      const message = await client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      expect(message.stop_reason).to.equal('end_turn');
      closeAfter(stream.slice(0, stream.indexOf('event: message_delta')));
      const cut = await client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage().catch((error: unknown) => error);
      expect(cut).to.be.instanceOf(Anthropic.APIError);
    });

    it('adds nothing to a whole Responses stream given without event lines, nor a second error after an upstream error chunk spelled data:{', async () => {
      const dataOnly =
        'data: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","status":"in_progress"}}\n\n' +
        'data: {"type":"response.completed","sequence_number":1,"response":{"id":"resp_1","status":"completed","output":[]}}\n\n';
      closeAfter(dataOnly);
      expect(await post('/openai/v1/responses', { model: 'gpt-4.1', input: 'hi', stream: true })).to.equal(dataOnly);
      const errored = 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\ndata:{"error":{"message":"boom"}}\n\n';
      closeAfter(errored);
      expect(await post('/openai/v1/chat/completions', { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] })).to.equal(errored);
    });

    it('drops the connection of a stream closed inside a line (no ending makes it readable), as on a break', async () => {
      closeAfter('data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\ndata: {"id":"c","obj');
      const failed = await post('/openai/v1/chat/completions', { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (error: unknown) => error);
      expect(failed).to.be.instanceOf(Error);
    });

    it('closed right after an event: line (no data yet): the SDKs read the error event ours completes, or the owed message_stop, not an empty event', async () => {
      const responses = fixtureText('openai-responses/stream-basic.sse');
      const delta = responses.indexOf('event: response.output_text.delta');
      closeAfter(responses.slice(0, responses.indexOf('\n', delta) + 1));
      const openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
      const events: Array<{ type: string; message?: string }> = [];
      for await (const event of await openai.responses.create({ model: 'gpt-4.1', input: 'hi', stream: true })) events.push(event);
      expect(events.at(-1)).to.include({ type: 'error', message: 'upstream stream ended before the response was complete' });
      // Cut right after its terminal event's line: the response never came, so an error too, not a silent end.
      closeAfter(responses.slice(0, responses.indexOf('\n', responses.indexOf('event: response.completed')) + 1));
      const terminal: Array<{ type: string }> = [];
      for await (const event of await openai.responses.create({ model: 'gpt-4.1', input: 'hi', stream: true })) terminal.push(event);
      expect(terminal.at(-1)).to.include({ type: 'error' });
      const messages = fixtureText('anthropic-messages/stream-basic.sse');
      const anthropic = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude`, maxRetries: 0 });
      const ask = () => anthropic.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      // After message_delta's stop reason: whole, with the message_stop it owed.
      closeAfter(messages.slice(0, messages.indexOf('event: message_stop')) + 'event: message_stop\n');
      expect((await ask()).stop_reason).to.equal('end_turn');
      const blockDelta = messages.indexOf('event: content_block_delta');
      closeAfter(messages.slice(0, messages.indexOf('\n', blockDelta) + 1));
      const cut = await ask().catch((error: unknown) => error);
      expect(cut).to.be.instanceOf(Anthropic.APIError);
    });

    it("drops the connection of a stream closed inside its end event's data (added bytes would make it bad JSON, none read as complete), and ends a whole last line without its line end", async () => {
      const responses = fixtureText('openai-responses/stream-basic.sse');
      const cut = responses.slice(0, responses.indexOf('"status":"completed"', responses.indexOf('event: response.completed')));
      expect(cut).to.contain('event: response.completed\ndata: {');
      closeAfter(cut);
      const dropped = await post('/openai/v1/responses', { model: 'gpt-4.1', input: 'hi', stream: true }).then(
        (text) => `ended normally: ${text.slice(-40)}`,
        (error: unknown) => String(error),
      );
      expect(dropped).to.equal('TypeError: terminated');
      const chat = fixtureText('openai-chat/stream-basic.sse');
      const noLineEnd = chat.trimEnd();
      expect(noLineEnd.endsWith('data: [DONE]')).to.equal(true);
      // Reset after it: whole all the same (the connection was dropped).
      upstream.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(noLineEnd, () => setTimeout(() => res.socket?.destroy(), 30));
      });
      const openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/openai/v1`, maxRetries: 0 });
      let text = '';
      for await (const chunk of await openai.chat.completions.create({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] })) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).to.equal('Hello, nice to meet you!');
    });

    describe('cut inside the line that carries its finish, its end or its error: never ended as a complete answer', () => {
      const chatStream = fixtureText('openai-chat/stream-basic.sse');
      const messagesStream = fixtureText('anthropic-messages/stream-basic.sse');
      const errorStream = fixtureText('anthropic-messages/stream-error.sse');
      const chatError = 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n';
      const upTo = (stream: string, mark: string, extra: number): string => stream.slice(0, stream.indexOf(mark) + mark.length + extra);
      const cases: Array<[string, string, string, Record<string, unknown>]> = [
        ['chat, in its finish_reason', '/openai/v1/chat/completions', upTo(chatStream, '"finish_reason":"', 1), { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] }],
        ['messages, in its stop_reason', '/claude/v1/messages', upTo(messagesStream, '"stop_reason":"', 1), { model: 'claude-sonnet-4-6', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }],
        ["messages, in its error event's data", '/claude/v1/messages', upTo(errorStream, 'event: error\ndata: {"type"', 0), { model: 'claude-sonnet-4-6', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }],
        ["chat, in the upstream's error event", '/openai/v1/chat/completions', upTo(chatError, 'data: {"error":{"mess', 0), { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] }],
      ];
      for (const [name, path, cut, body] of cases) {
        for (const how of ['closed', 'reset', 'stalled'] as const) {
          it(`${name}, ${how}: the connection is dropped`, async () => {
            upstream.handle((_req, res) => {
              res.writeHead(200, { 'content-type': 'text/event-stream' });
              if (how === 'closed') res.end(cut);
              else if (how === 'reset') res.write(cut, () => setTimeout(() => res.socket?.destroy(), 30));
              else res.write(cut);
            });
            const outcome = await post(path, body).then(
              (text) => `ended normally after ${JSON.stringify(text.slice(cut.length))}`,
              (error: unknown) => String(error),
            );
            expect(outcome).to.equal('TypeError: terminated');
          });
        }
      }

      for (const how of ['closed', 'reset'] as const) {
        it(`messages, cut right after its error event's event: line (${how}): our error event completes it, the SDK raises it`, async () => {
          const cut = upTo(errorStream, 'event: error\n', 0);
          upstream.handle((_req, res) => {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            if (how === 'closed') res.end(cut);
            else res.write(cut, () => setTimeout(() => res.socket?.destroy(), 30));
          });
          const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude`, maxRetries: 0 });
          const error = await client.messages
            .stream({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
            .finalMessage()
            .catch((caught: unknown) => caught);
          expect(error).to.be.instanceOf(Anthropic.APIError);
          expect(String(error)).to.match(/upstream/);
        });
      }
    });

    it("adds no error of ours after the upstream's own error event split across two reads, or one spelled with spaces", async () => {
      const head = 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n';
      upstream.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`${head}data: {"err`, () => setTimeout(() => res.end('or":{"message":"overloaded","type":"server_error"}}\n\n'), 30));
      });
      expect(await post('/openai/v1/chat/completions', { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] })).to.equal(
        `${head}data: {"error":{"message":"overloaded","type":"server_error"}}\n\n`,
      );
      const spaced = 'data: {"type": "response.created", "sequence_number": 0, "response": {"id": "resp_1", "status": "in_progress"}}\n\ndata: {"type": "error", "sequence_number": 1, "code": "server_error", "message": "boom", "param": null}\n\n';
      closeAfter(spaced);
      expect(await post('/openai/v1/responses', { model: 'gpt-4.1', input: 'hi', stream: true })).to.equal(spaced);
    });

    it('gemini, a blocked prompt (one chunk, promptFeedback, no candidate) closed: the whole answer, no error after it', async () => {
      const blocked = `data: ${JSON.stringify(JSON.parse(fixtureText('gemini/response-prompt-blocked.json')))}\r\n\r\n`;
      closeAfter(blocked);
      expect(await post('/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents: [{ parts: [{ text: 'hi' }] }] }, { 'x-goog-api-key': TEST_LICENSE })).to.equal(blocked);
    });

    it('gemini, closed before any finishReason: the Google SDK raises an error', async () => {
      const stream = fixtureText('gemini/stream-basic.sse');
      const firstEvent = stream.slice(0, stream.indexOf('\r\n\r\n') + 4);
      closeAfter(firstEvent);
      const client = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${gw.url}/gemini` } });
      const failed = await (async () => {
        for await (const _chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' })) void _chunk;
      })().then(() => undefined, (error: unknown) => error);
      expect(failed).to.be.instanceOf(Error);
    });
  });

  it('gemini passthrough, a streamed JSON array (no alt=sse) held open after its finish: closed with its ], no error element; cut before it, an error element', async () => {
    const finished = { candidates: [{ content: { role: 'model', parts: [{ text: 'Hello' }] }, finishReason: 'STOP', index: 0 }] };
    const post = () =>
      fetch(`${gw.url}/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': TEST_LICENSE, 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }),
      }).then((res) => res.text());
    const head = `[${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }] })}`;
    const whole = `${head},\r\n${JSON.stringify(finished)}`;
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(whole);
    });
    expect(await post()).to.equal(`${whole}]`);
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(head);
    });
    const cut = JSON.parse(await post()) as Array<Record<string, unknown>>;
    expect(cut).to.have.length(2);
    expect(cut[1]).to.have.property('error');
    // Whole, then cut after a comma: an element is owed, so the error element, still valid JSON.
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${whole}\r\n,`);
    });
    const owed = JSON.parse(await post()) as Array<Record<string, unknown>>;
    expect(owed).to.have.length(3);
    expect(owed[2]).to.have.property('error');
  });

  it('gemini passthrough: the Google SDK gets the stream without an error after it', async () => {
    holdOpenAfter(fixtureText('gemini/stream-basic.sse'));
    const client = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${gw.url}/gemini` } });
    const reasons: string[] = [];
    for await (const chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' })) {
      const reason = chunk.candidates?.[0]?.finishReason;
      if (reason) reasons.push(reason);
    }
    expect(reasons).to.deep.equal(['STOP']);
  });

  it('openai passthrough: a Responses stream goes on after an error event, and one held open after it gets no second error', async () => {
    const created = 'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","status":"in_progress"}}\n\n';
    const error = 'event: error\ndata: {"type":"error","sequence_number":1,"code":"server_error","message":"boom","param":null}\n\n';
    const failed = 'event: response.failed\ndata: {"type":"response.failed","sequence_number":2,"response":{"id":"resp_1","status":"failed"}}\n\n';
    const post = () =>
      fetch(`${gw.url}/openai/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4.1', input: 'hi', stream: true }),
      }).then((res) => res.text());
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(created + error);
      setTimeout(() => res.end(failed), 50);
    });
    expect(await post()).to.equal(created + error + failed);
    holdOpenAfter(created + error);
    expect(await post()).to.equal(created + error);
  });
});
