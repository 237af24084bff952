import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startGateway, TEST_LICENSE } from '../../../../test/helpers/start-gateway';
import { SSE, unevenChunks, useClaudeOnFakeUpstream } from '../helpers/fake-upstream';
import { messagesAnswer, messagesStream } from '../helpers/messages-stream';

const KEYS = ['sk-ant-api03-paused-turn-key-000000001', 'sk-ant-api03-paused-turn-key-000000002'];
const MODEL = 'claude-sonnet-4-6';
type Block = Record<string, unknown>;

const searchBlocks = (id: string, url: string): Block[] => [
  { type: 'server_tool_use', id, name: 'web_search', input: { query: `query ${id}` } },
  { type: 'web_search_tool_result', tool_use_id: id, content: [{ type: 'web_search_result', url, title: `Page ${id}`, encrypted_content: `Eq${id}`, page_age: null }] },
];
const ROUND_1: Block[] = [{ type: 'text', text: 'Let me search. ' }, ...searchBlocks('srvtoolu_01', 'https://example.com/one')];
const ROUND_2: Block[] = searchBlocks('srvtoolu_02', 'https://example.com/two');
const ROUND_3: Block[] = [
  {
    type: 'text',
    text: 'Node 20 is in maintenance.',
    citations: [{ type: 'web_search_result_location', url: 'https://example.com/two', title: 'Page srvtoolu_02', encrypted_index: 'Eo', cited_text: 'maintenance' }],
  },
];

/** A stream whose pausing message_delta names the code execution container it ran in. */
const withContainer = (stream: Buffer): Buffer =>
  Buffer.from(stream.toString('utf8').replace('"stop_reason":"pause_turn","stop_sequence":null', '"stop_reason":"pause_turn","stop_sequence":null,"container":{"id":"container_01"}'));

/** The messages of the request the upstream got. */
const messagesOf = (json: unknown): Array<{ role: string; content: unknown }> => (json as { messages: Array<{ role: string; content: unknown }> }).messages;

describe('claude plugin: paused turns continued for translated clients', function () {
  this.timeout(20_000);
  const env = useClaudeOnFakeUpstream(KEYS);

  it('chat completions: each paused answer goes back as the assistant turn, with the same key; the client gets one answer', async () => {
    env.upstream.queue(
      { status: 200, body: JSON.stringify(messagesAnswer('msg_1', ROUND_1, 'pause_turn', { input_tokens: 100, output_tokens: 10, server_tool_use: { web_search_requests: 1 } })) },
      { status: 200, body: JSON.stringify(messagesAnswer('msg_2', ROUND_2, 'pause_turn', { input_tokens: 200, output_tokens: 20, server_tool_use: { web_search_requests: 1 } })) },
      { status: 200, body: JSON.stringify(messagesAnswer('msg_3', ROUND_3, 'end_turn', { input_tokens: 300, output_tokens: 30 })) },
    );
    const completion = await env.openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Which Node is LTS?' }], web_search_options: {} });

    expect(env.upstream.seen).to.have.length(3);
    const asked = env.upstream.seen.map((seen) => messagesOf(seen.json));
    expect(asked[0]).to.have.length(1);
    expect(JSON.stringify(asked[0][0])).to.include('Which Node is LTS?');
    expect(asked[1]).to.deep.equal([...asked[0], { role: 'assistant', content: ROUND_1 }]);
    expect(asked[2]).to.deep.equal([...asked[0], { role: 'assistant', content: [...ROUND_1, ...ROUND_2] }]);
    expect(new Set(env.upstream.seen.map((seen) => seen.headers['x-api-key'])).size).to.equal(1);

    const message = completion.choices[0].message;
    expect(message.content).to.equal('Let me search. Node 20 is in maintenance.');
    expect(completion.choices[0].finish_reason).to.equal('stop');
    expect(completion.usage).to.include({ prompt_tokens: 600, completion_tokens: 60 });
    const annotations = (message as { annotations?: Array<{ url_citation: { url: string } }> }).annotations ?? [];
    expect(annotations.map((a) => a.url_citation.url)).to.include('https://example.com/two');
  });

  it('Responses stream: one stream with both searches and the answer; the upstream gets the streamed turn back block for block', async () => {
    env.upstream.queue(
      { status: 200, headers: SSE, body: unevenChunks(withContainer(messagesStream('msg_4', ROUND_1, 'pause_turn', { start: { input_tokens: 100, output_tokens: 1 }, end: { output_tokens: 10 } })), 13) },
      { status: 200, headers: SSE, body: unevenChunks(messagesStream('msg_5', [...ROUND_2, ...ROUND_3], 'end_turn', { start: { input_tokens: 300, output_tokens: 1 }, end: { output_tokens: 30 } }), 13) },
    );
    const stream = await env.openai.responses.create({ model: MODEL, input: 'Which Node is LTS?', tools: [{ type: 'web_search' }], stream: true });
    const types: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types.filter((type) => type === 'response.created')).to.have.length(1);
    expect(types.filter((type) => type === 'response.completed')).to.have.length(1);
    expect(completed?.status).to.equal('completed');
    expect(completed?.output.filter((item) => item.type === 'web_search_call')).to.have.length(2);
    const texts = completed?.output.flatMap((item) => (item.type === 'message' ? item.content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])) : []));
    expect(texts?.join('')).to.equal('Let me search. Node 20 is in maintenance.');
    expect(completed?.usage).to.include({ input_tokens: 400, output_tokens: 40 });

    expect(env.upstream.seen).to.have.length(2);
    expect(messagesOf(env.upstream.seen[1].json).at(-1)).to.deep.equal({ role: 'assistant', content: ROUND_1 });
    expect(env.upstream.seen[1].headers['x-api-key']).to.equal(env.upstream.seen[0].headers['x-api-key']);
    expect((env.upstream.seen[1].json as { container?: string }).container).to.equal('container_01');
  });

  it('a continuation that fails ends the stream with the error, after what the first call streamed', async () => {
    const overloaded = { status: 529, body: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) };
    env.upstream.queue({ status: 200, headers: SSE, body: messagesStream('msg_6', ROUND_1, 'pause_turn') }, overloaded, overloaded);
    const stream = await env.openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Search.' }], web_search_options: {}, stream: true });
    let text = '';
    let failure: unknown;
    try {
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    } catch (error) {
      failure = error;
    }
    expect(text).to.equal('Let me search. ');
    expect(String(failure)).to.match(/overloaded/i);
    expect(env.upstream.seen).to.have.length(3);
  });

  it('a Messages client gets the pause as it came (its format can send it back), in one call', async () => {
    env.upstream.queue({ status: 200, body: JSON.stringify(messagesAnswer('msg_7', ROUND_1, 'pause_turn')) });
    const response = await fetch(`${env.gw.url}/claude/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_LICENSE, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODEL, max_tokens: 1000, messages: [{ role: 'user', content: 'Search.' }], tools: [{ type: 'web_search_20250305', name: 'web_search' }] }),
    });
    expect(((await response.json()) as { stop_reason: string }).stop_reason).to.equal('pause_turn');
    expect(env.upstream.seen).to.have.length(1);
  });

  it('a translated request without a server tool is answered as it came, paused or not', async () => {
    env.upstream.queue({ status: 200, body: JSON.stringify(messagesAnswer('msg_8', [{ type: 'text', text: 'Paused.' }], 'pause_turn')) });
    const completion = await env.openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say "type":"web_search_20250305".' }] });
    expect(completion.choices[0].message.content).to.equal('Paused.');
    expect(env.upstream.seen).to.have.length(1);
  });

  it('a continuation the upstream refuses is a 502 of the gateway\'s, not the client\'s 400', async () => {
    env.upstream.queue(
      { status: 200, body: JSON.stringify(messagesAnswer('msg_9', ROUND_1, 'pause_turn')) },
      { status: 400, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'messages: bad continuation' } }) },
    );
    const response = await fetch(`${env.gw.url}/claude/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Search.' }], web_search_options: {} }),
    });
    expect(response.status).to.equal(502);
    expect(((await response.json()) as { error: { message: string } }).error.message).to.equal('upstream refused to continue a paused turn: messages: bad continuation');
    expect(env.upstream.seen).to.have.length(2);
  });

  /** A gateway on a raw upstream: `answer(n, res)` answers its n-th call (from 1). */
  async function withRawUpstream(answer: (call: number, res: ServerResponse) => void, run: (client: OpenAI) => Promise<void>): Promise<number> {
    let calls = 0;
    const raw = createServer((req, res) => {
      calls += 1;
      req.resume();
      answer(calls, res);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const rawGw = await startGateway({ claude: { plugin: 'claude', baseUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`, credentials: [{ apiKey: KEYS[0] }] } });
    try {
      await run(new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${rawGw.url}/claude/v1`, maxRetries: 0 }));
      return calls;
    } finally {
      await rawGw.close();
      raw.closeAllConnections();
      raw.close();
    }
  }
  const chatStreamText = async (client: OpenAI): Promise<string> => {
    const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Search.' }], web_search_options: {}, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    return text;
  };

  it('a paused stream held open after its message_stop is continued at once; one that breaks after pausing, too', async () => {
    const paused = messagesStream('msg_10', ROUND_1, 'pause_turn');
    const pauseDelta = paused.indexOf('event: message_delta');
    const stopAt = paused.indexOf('event: message_stop');
    const final = (res: ServerResponse): void => void res.end(messagesStream('msg_11', ROUND_3, 'end_turn'));
    // Held open: before, the continuation waited for the upstream's idle timeout.
    const heldOpen = await withRawUpstream(
      (call, res) => {
        res.writeHead(200, SSE);
        if (call === 1) res.write(paused);
        else final(res);
      },
      async (client) => {
        expect(await chatStreamText(client)).to.equal('Let me search. Node 20 is in maintenance.');
      },
    );
    expect(heldOpen).to.equal(2);
    // Reset after the pausing message_delta, before message_stop: the turn was paused all the same.
    const broken = await withRawUpstream(
      (call, res) => {
        res.writeHead(200, SSE);
        if (call > 1) return final(res);
        res.write(paused.subarray(0, stopAt));
        setTimeout(() => res.socket?.destroy(), 20);
      },
      async (client) => {
        expect(await chatStreamText(client)).to.equal('Let me search. Node 20 is in maintenance.');
      },
    );
    expect(broken).to.equal(2);
    // Broken before it paused: an error after what came, and no continuation.
    const early = await withRawUpstream(
      (_call, res) => {
        res.writeHead(200, SSE);
        res.write(paused.subarray(0, pauseDelta));
        setTimeout(() => res.socket?.destroy(), 20);
      },
      async (client) => {
        let failure: unknown;
        await chatStreamText(client).catch((error: unknown) => (failure = error));
        expect(String(failure)).to.match(/connection lost|ended before/i);
      },
    );
    expect(early).to.equal(1);
  });

  it('a client that leaves during a continuation cuts the continuation\'s upstream call', async () => {
    let continuationClosed: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (continuationClosed = resolve));
    let continuationSeen: () => void = () => undefined;
    const continuing = new Promise<void>((resolve) => (continuationSeen = resolve));
    const calls = await withRawUpstream(
      (call, res) => {
        res.writeHead(200, SSE);
        if (call === 1) return void res.end(messagesStream('msg_12', ROUND_1, 'pause_turn'));
        // The continuation starts and then holds: only the client leaving ends it.
        res.write(messagesStream('msg_13', ROUND_3, 'end_turn').subarray(0, 40));
        res.on('close', continuationClosed);
        continuationSeen();
      },
      async (client) => {
        const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Search.' }], web_search_options: {}, stream: true });
        for await (const chunk of stream) {
          if (!chunk.choices[0]?.delta?.content) continue;
          // The first call's text is in, the continuation under way: the client leaves.
          await continuing;
          break;
        }
        await closed;
      },
    );
    expect(calls).to.equal(2);
  });
});
