import { expect } from 'chai';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { SSE, startFakeUpstream, unevenChunks, type FakeUpstream } from './helpers/fake-upstream';
import { messagesAnswer, messagesStream } from './helpers/messages-stream';

const SIG_1 = 'EqQBCkgIBxABGAIqQJ3vW6mZ8pT0-signature-one==';
const SIG_2 = 'ErUBCkYIBxgCIkB4yN1sL2dF5gH7-signature-two==';
const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP';
const TOOL = { type: 'function', function: { name: 'get_weather', description: 'Weather of a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };

type Block = Record<string, unknown>;

const message = messagesAnswer;
const stream = messagesStream;

const TURN_1: Block[] = [
  { type: 'thinking', thinking: 'I should look up the weather in Paris.', signature: SIG_1 },
  { type: 'redacted_thinking', data: REDACTED },
  { type: 'text', text: 'Let me check.' },
  { type: 'tool_use', id: 'toolu_01Paris', name: 'get_weather', input: { city: 'Paris' } },
];
const TURN_2: Block[] = [
  { type: 'thinking', thinking: 'Paris is cloudy; now Tokyo.', signature: SIG_2 },
  { type: 'tool_use', id: 'toolu_02Tokyo', name: 'get_weather', input: { city: 'Tokyo' } },
];
const TURN_3: Block[] = [{ type: 'text', text: 'Paris is cloudy and Tokyo is sunny.' }];

/** The assistant turns the upstream received, as Messages content blocks. */
function assistantTurns(json: unknown): Block[][] {
  return (json as { messages: Array<{ role: string; content: Block[] }> }).messages.filter((m) => m.role === 'assistant').map((m) => m.content);
}

const EXPECTED_TURN_1_REPLAY: Block[] = [
  { type: 'thinking', thinking: 'I should look up the weather in Paris.', signature: SIG_1 },
  { type: 'redacted_thinking', data: REDACTED },
  { type: 'text', text: 'Let me check.' },
  { type: 'tool_use', id: 'toolu_01Paris', name: 'get_weather', input: { city: 'Paris' } },
];
const EXPECTED_TURN_2_REPLAY: Block[] = [
  { type: 'thinking', thinking: 'Paris is cloudy; now Tokyo.', signature: SIG_2 },
  { type: 'tool_use', id: 'toolu_02Tokyo', name: 'get_weather', input: { city: 'Tokyo' } },
];

interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** Reassembles a chat-completions stream into the assistant message the client would keep. */
function assembleChatStream(text: string): { content: string; reasoning: string; toolCalls: ChatToolCall[] } {
  let content = '';
  let reasoning = '';
  const toolCalls: ChatToolCall[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const chunk = JSON.parse(line.slice(6)) as { choices?: Array<{ delta?: { content?: string; reasoning_content?: string; tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }> } }> };
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) continue;
    content += delta.content ?? '';
    reasoning += delta.reasoning_content ?? '';
    for (const call of delta.tool_calls ?? []) {
      const slot = (toolCalls[call.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
      if (call.id) slot.id = call.id;
      if (call.function?.name) slot.function.name = call.function.name;
      slot.function.arguments += call.function?.arguments ?? '';
    }
  }
  return { content, reasoning, toolCalls };
}

describe('claude plugin: thinking signatures across formats (three turns)', () => {
  let upstream: FakeUpstream;
  let gw: RunningGateway;
  before(async () => {
    upstream = await startFakeUpstream();
    gw = await startGateway({ claude: { plugin: 'claude', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-ant-api03-thinking-000000000001' }] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  const chat = async (body: Record<string, unknown>): Promise<Response> =>
    fetch(`${gw.url}/claude/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-6-thinking', tools: [TOOL], ...body }),
    });

  it('non-streaming chat client: each turn sends the earlier signed thinking back before its tool call', async () => {
    upstream.queue(
      { status: 200, body: JSON.stringify(message('msg_1', TURN_1, 'tool_use')) },
      { status: 200, body: JSON.stringify(message('msg_2', TURN_2, 'tool_use')) },
      { status: 200, body: JSON.stringify(message('msg_3', TURN_3, 'end_turn')) },
    );
    const history: Array<Record<string, unknown>> = [{ role: 'user', content: 'Weather in Paris, then Tokyo?' }];

    // Turn 1: thinking + a tool call. The chat client keeps only what chat can hold.
    const first = (await (await chat({ messages: history })).json()) as { choices: Array<{ message: Record<string, unknown> & { tool_calls: ChatToolCall[] } }> };
    const firstMessage = first.choices[0].message;
    expect(firstMessage.tool_calls[0].id).to.equal('toolu_01Paris');
    expect(JSON.stringify(firstMessage)).not.to.include(SIG_1);
    history.push(firstMessage, { role: 'tool', tool_call_id: 'toolu_01Paris', content: 'cloudy' });

    // Turn 2: the upstream must get the thinking block with its signature back.
    const second = (await (await chat({ messages: history })).json()) as { choices: Array<{ message: Record<string, unknown> & { tool_calls: ChatToolCall[] } }> };
    expect(assistantTurns(upstream.seen[1].json)).to.deep.equal([EXPECTED_TURN_1_REPLAY]);
    history.push(second.choices[0].message, { role: 'tool', tool_call_id: 'toolu_02Tokyo', content: 'sunny' });

    // Turn 3: both earlier tool turns carry their own signed thinking.
    const third = (await (await chat({ messages: history })).json()) as { choices: Array<{ message: { content: string } }> };
    expect(third.choices[0].message.content).to.equal('Paris is cloudy and Tokyo is sunny.');
    expect(assistantTurns(upstream.seen[2].json)).to.deep.equal([EXPECTED_TURN_1_REPLAY, EXPECTED_TURN_2_REPLAY]);
  });

  it('streaming chat client: the same three turns over SSE', async () => {
    upstream.queue(
      { status: 200, headers: SSE, body: unevenChunks(stream('msg_4', TURN_1, 'tool_use'), 17) },
      { status: 200, headers: SSE, body: unevenChunks(stream('msg_5', TURN_2, 'tool_use'), 17) },
      { status: 200, headers: SSE, body: unevenChunks(stream('msg_6', TURN_3, 'end_turn'), 17) },
    );
    const history: Array<Record<string, unknown>> = [{ role: 'user', content: 'Weather in Paris, then Tokyo?' }];
    const turn = async (): Promise<ReturnType<typeof assembleChatStream>> => assembleChatStream(await (await chat({ stream: true, messages: history })).text());

    const first = await turn();
    expect(first.reasoning).to.equal('I should look up the weather in Paris.');
    history.push({ role: 'assistant', content: first.content, reasoning_content: first.reasoning, tool_calls: first.toolCalls }, { role: 'tool', tool_call_id: first.toolCalls[0].id, content: 'cloudy' });
    const second = await turn();
    expect(assistantTurns(upstream.seen[1].json)).to.deep.equal([EXPECTED_TURN_1_REPLAY]);
    history.push({ role: 'assistant', content: null, tool_calls: second.toolCalls }, { role: 'tool', tool_call_id: second.toolCalls[0].id, content: 'sunny' });
    const third = await turn();
    expect(third.content).to.equal('Paris is cloudy and Tokyo is sunny.');
    expect(assistantTurns(upstream.seen[2].json)).to.deep.equal([EXPECTED_TURN_1_REPLAY, EXPECTED_TURN_2_REPLAY]);
  });

  it('Gemini native client: the signed thinking comes back although Gemini cannot carry Anthropic signatures', async () => {
    upstream.queue(
      { status: 200, headers: SSE, body: stream('msg_7', TURN_2, 'tool_use') },
      { status: 200, body: JSON.stringify(message('msg_8', TURN_3, 'end_turn')) },
    );
    const gemini = (path: string, body: Record<string, unknown>): Promise<Response> =>
      fetch(`${gw.url}/claude/v1beta/models/claude-sonnet-4-6-thinking:${path}`, {
        method: 'POST',
        headers: { 'x-goog-api-key': TEST_LICENSE, 'content-type': 'application/json' },
        body: JSON.stringify({ tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } }] }], ...body }),
      });
    const contents: Array<Record<string, unknown>> = [{ role: 'user', parts: [{ text: 'Weather in Tokyo?' }] }];
    const text = await (await gemini('streamGenerateContent?alt=sse', { contents })).text();
    const parts = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .flatMap((line) => (JSON.parse(line.slice(6)) as { candidates: Array<{ content: { parts: Array<Record<string, unknown>> } }> }).candidates[0].content.parts);
    const call = parts.find((part) => part.functionCall) as { functionCall: { id: string; name: string; args: object } };
    expect(call.functionCall.id).to.equal('toolu_02Tokyo');
    contents.push(
      { role: 'model', parts: [{ functionCall: call.functionCall }] },
      { role: 'user', parts: [{ functionResponse: { id: call.functionCall.id, name: 'get_weather', response: { result: 'sunny' } } }] },
    );
    await gemini('generateContent', { contents });
    expect(assistantTurns(upstream.seen[1].json)).to.deep.equal([EXPECTED_TURN_2_REPLAY]);
  });

  it('leaves signed thinking a client sent itself alone and restores nothing for unknown tool calls', async () => {
    upstream.queue({ status: 200, body: JSON.stringify(message('msg_9', TURN_3, 'end_turn')) });
    await chat({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_never_seen', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }] },
        { role: 'tool', tool_call_id: 'toolu_never_seen', content: 'warm' },
      ],
    });
    expect(assistantTurns(upstream.seen[0].json)).to.deep.equal([[{ type: 'tool_use', id: 'toolu_never_seen', name: 'get_weather', input: { city: 'Rome' } }]]);
  });

  it("Responses client sending an answer's parallel calls back each with its output after it: thinking kept at the loop's head", async () => {
    const parallel: Block[] = [
      { type: 'thinking', thinking: 'Both at once.', signature: SIG_1 },
      { type: 'tool_use', id: 'toolu_01Paris', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'toolu_01Tokyo', name: 'get_weather', input: { city: 'Tokyo' } },
    ];
    upstream.queue(
      { status: 200, body: JSON.stringify(message('msg_p1', parallel, 'tool_use')) },
      { status: 200, body: JSON.stringify(message('msg_p2', TURN_3, 'end_turn')) },
    );
    const responses = (body: Record<string, unknown>) =>
      fetch(`${gw.url}/claude/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-sonnet-4-6', reasoning: { effort: 'medium' }, tools: [{ type: 'function', ...TOOL.function }], ...body }),
      }).then((res) => res.json() as Promise<{ output: Array<Record<string, unknown>> }>);
    const user = { role: 'user', content: 'Weather in Paris and Tokyo?' };
    const first = await responses({ input: [user] });
    const calls = first.output.filter((item) => item.type === 'function_call');
    expect(calls.map((item) => item.call_id)).to.deep.equal(['toolu_01Paris', 'toolu_01Tokyo']);
    const paired = calls.flatMap((item) => [
      { type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments },
      { type: 'function_call_output', call_id: item.call_id, output: item.call_id === 'toolu_01Paris' ? 'cloudy' : 'sunny' },
    ]);
    await responses({ input: [user, ...paired] });
    const sent = upstream.seen[1].json as { thinking?: unknown; messages: Array<{ role: string; content: Block[] }> };
    expect(sent.thinking).to.deep.equal({ type: 'adaptive' });
    expect(sent.messages.map((m) => m.content.map((block) => block.type).join(','))).to.deep.equal(['text', 'thinking,tool_use', 'tool_result', 'tool_use', 'tool_result']);
  });

  it('sequential calls, the later one made without thinking (not interleaved): thinking kept, each call in its own turn as it was made', async () => {
    const later: Block[] = [{ type: 'tool_use', id: 'toolu_s2Tokyo', name: 'get_weather', input: { city: 'Tokyo' } }];
    upstream.queue(
      { status: 200, body: JSON.stringify(message('msg_s1', TURN_2.map((block) => (block.type === 'tool_use' ? { ...block, id: 'toolu_s1Paris', input: { city: 'Paris' } } : block)), 'tool_use')) },
      { status: 200, body: JSON.stringify(message('msg_s2', later, 'tool_use')) },
      { status: 200, body: JSON.stringify(message('msg_s3', TURN_3, 'end_turn')) },
    );
    type Answer = { choices: Array<{ message: Record<string, unknown> & { tool_calls: ChatToolCall[] } }> };
    const history: Array<Record<string, unknown>> = [{ role: 'user', content: 'Weather in Paris, then Tokyo?' }];
    const first = (await (await chat({ messages: history })).json()) as Answer;
    history.push(first.choices[0].message, { role: 'tool', tool_call_id: 'toolu_s1Paris', content: 'cloudy' });
    const second = (await (await chat({ messages: history })).json()) as Answer;
    history.push(second.choices[0].message, { role: 'tool', tool_call_id: 'toolu_s2Tokyo', content: 'sunny' });
    await chat({ messages: history });
    const sent = upstream.seen[2].json as { thinking?: unknown; messages: Array<{ role: string; content: Block[] }> };
    expect(sent.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 16000 });
    expect(sent.messages.map((m) => m.content.map((block) => (block.type === 'tool_use' || block.type === 'tool_result' ? `${block.type}:${String(block.id ?? block.tool_use_id)}` : block.type)).join(','))).to.deep.equal([
      'text',
      'thinking,tool_use:toolu_s1Paris',
      'tool_result:toolu_s1Paris',
      'tool_use:toolu_s2Tokyo',
      'tool_result:toolu_s2Tokyo',
    ]);
  });
});
