import { expect } from 'chai';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import { decodeMessagesRequest } from '../../../../core/codecs/messages/decode-request';
import { encodeMessagesRequest } from '../../../../core/codecs/messages/encode-request';
import type { UnifiedMessage, UnifiedRequest } from '../../../../core/unified/unified-request';
import { readMessagesFixture } from './messages-fixtures';

type Json = Record<string, unknown>;

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';

/** The same request with string system/content spelled as text blocks, which the encoder always emits. */
function normalize(body: Json): Json {
  const text = (t: string) => [{ type: 'text', text: t }];
  const out: Json = { ...body };
  if (typeof out.system === 'string') out.system = text(out.system);
  out.messages = (out.messages as Json[]).map((m) => (typeof m.content === 'string' ? { ...m, content: text(m.content) } : m));
  return out;
}

function request(messages: UnifiedMessage[], extra: Partial<UnifiedRequest> = {}): UnifiedRequest {
  return { model: 'claude-x', system: [], messages, stream: false, ...extra };
}

const hi: UnifiedMessage = { role: 'user', content: [{ type: 'text', text: 'hi' }] };

function encodeError(req: UnifiedRequest): { code: string; status: number; message: string; param?: string } {
  try {
    encodeMessagesRequest(req);
  } catch (e) {
    if (isGatewayError(e)) return { code: e.code, status: e.status, message: e.message, param: e.param };
    throw e;
  }
  throw new Error('expected encodeMessagesRequest to throw');
}

describe('encodeMessagesRequest', () => {
  describe('round trip of the request fixtures (decode, then encode)', () => {
    for (const name of [
      'request-basic.json',
      'request-thinking.json',
      'request-thinking-adaptive.json',
      'request-tools.json',
      'request-tool-result.json',
      'request-vision.json',
    ]) {
      it(`gives back ${name}`, () => {
        const wire = readMessagesFixture(name) as Json;
        const { value, warnings } = encodeMessagesRequest(decodeMessagesRequest(wire));
        expect(value).to.deep.equal(normalize(wire));
        expect(warnings).to.deep.equal([]);
      });
    }
  });

  it('gives a Claude Code request back to a Messages upstream with cache_control, raw tools and extensions intact', () => {
    const wire = {
      model: 'claude-sonnet-4-6',
      max_tokens: 32000,
      system: [
        { type: 'text', text: 'You are Claude Code.' },
        { type: 'text', text: 'Rules.', cache_control: { type: 'ephemeral' } },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }, { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok', cache_control: { type: 'ephemeral' } }] },
      ],
      tools: [
        { name: 'Bash', description: 'run', input_schema: { type: 'object', additionalProperties: false, properties: {} }, cache_control: { type: 'ephemeral' }, strict: true },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
        { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
      ],
      tool_choice: { type: 'auto' },
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      metadata: { user_id: 'u1' },
      stream: true,
    };
    const { value } = encodeMessagesRequest(decodeMessagesRequest(wire));
    expect(value).to.deep.equal({
      ...wire,
      tools: [wire.tools[0], wire.tools[1], wire.tools[2]],
    });
  });

  describe('turns', () => {
    it('merges consecutive tool results and the following user text into one user turn, tool results first', () => {
      const { value } = encodeMessagesRequest(request([
        hi,
        {
          role: 'assistant',
          content: [
            { type: 'tool_call', id: 'call_a', name: 'f', arguments: '{"x":1}' },
            { type: 'tool_call', id: 'call_b', name: 'g', arguments: '' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_a', content: [{ type: 'text', text: 'A' }] }] },
        { role: 'system', content: [{ type: 'text', text: 'be brief' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_b', content: [], isError: true }] },
        { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
      ]));
      expect(value.messages).to.deep.equal([
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_a', name: 'f', input: { x: 1 } },
            { type: 'tool_use', id: 'call_b', name: 'g', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_a', content: 'A' },
            { type: 'tool_result', tool_use_id: 'call_b', is_error: true },
            { type: 'text', text: 'be brief' },
            { type: 'text', text: 'thanks' },
          ],
        },
      ]);
    });

    it('sends a result whose call is not in the previous assistant message as user text naming the function (Anthropic refuses it as a tool_result)', () => {
      const { value } = encodeMessagesRequest(request([
        // A sliding window cut the call off: the conversation starts with its result.
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c0', name: 'read_file', content: [{ type: 'text', text: 'x' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG } }] }] },
        { role: 'user', content: [{ type: 'text', text: 'and now?' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'run', arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'ran' }] }, { type: 'tool_result', toolCallId: 'c9', name: 'run', content: [{ type: 'text', text: 'denied' }], isError: true }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        // The call was answered two turns back: not the previous message.
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', name: 'run', content: [{ type: 'text', text: 'ran again' }] }] },
      ]));
      expect(value.messages).to.deep.equal([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'read_file result: x' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'text', text: 'and now?' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'run', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'ran' }, { type: 'text', text: 'run result: Error: denied' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: [{ type: 'text', text: 'run result: ran again' }] },
      ]);
    });

    it('gives calls that repeat an id (across turns, within one, or once cleaned) ids of their own, each result paired with its call', () => {
      const call = (id: string, name: string) => ({ type: 'tool_call' as const, id, name, arguments: '{}' });
      const result = (id: string, text: string) => ({ type: 'tool_result' as const, toolCallId: id, content: [{ type: 'text' as const, text }] });
      const { value } = encodeMessagesRequest(request([
        hi,
        { role: 'assistant', content: [call('call_0', 'a')] },
        { role: 'tool', content: [result('call_0', 'A')] },
        { role: 'assistant', content: [call('call_0', 'b'), call('call_0', 'c'), call('f.x:1', 'd'), call('f_x_1', 'e')] },
        { role: 'tool', content: [result('call_0', 'B'), result('call_0', 'C'), result('f.x:1', 'D'), result('f_x_1', 'E')] },
      ]));
      const blocks = (value.messages as Array<{ content: Array<{ type: string; id?: string; tool_use_id?: string; content?: string }> }>).flatMap((m) => m.content);
      expect(blocks.filter((b) => b.type === 'tool_use').map((b) => b.id)).to.deep.equal(['call_0', 'call_0_2', 'call_0_3', 'f_x_1', 'f_x_1_2']);
      expect(blocks.filter((b) => b.type === 'tool_result').map((b) => [b.tool_use_id, b.content])).to.deep.equal([
        ['call_0', 'A'],
        ['call_0_2', 'B'],
        ['call_0_3', 'C'],
        ['f_x_1', 'D'],
        ['f_x_1_2', 'E'],
      ]);
      // A result pairs with the call of the turn before it, not an older one its client left unanswered.
      const late = encodeMessagesRequest(request([
        hi,
        { role: 'assistant', content: [call('call_0', 'a')] },
        { role: 'user', content: [{ type: 'text', text: 'never mind' }] },
        { role: 'assistant', content: [call('call_0', 'b')] },
        { role: 'tool', content: [result('call_0', 'B')] },
      ])).value.messages as Array<{ content: Array<{ type: string; tool_use_id?: string }> }>;
      expect(late.at(-1)?.content).to.deep.equal([{ type: 'tool_result', tool_use_id: 'call_0_2', content: 'B' }]);
    });

    it('turns a mid-conversation system message between assistant turns into its own user turn', () => {
      const { value } = encodeMessagesRequest(request([
        hi,
        { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
        { role: 'system', content: [{ type: 'text', text: 'reminder' }] },
      ]));
      expect(value.messages).to.deep.equal([
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
        { role: 'user', content: [{ type: 'text', text: 'reminder' }] },
      ]);
    });

    it("leaves thinking blocks out when thinking is left out (a forced tool in a tool loop), keeping the client's effort", () => {
      const loop: UnifiedMessage[] = [
        hi,
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'plan', signature: 'sig', provider: 'messages' },
            { type: 'tool_call', id: 'toolu_1', name: 'ls', arguments: '{}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'toolu_1', content: [{ type: 'text', text: 'a.txt' }] }] },
      ];
      const tools = [{ name: 'ls', parameters: { type: 'object' } }, { name: 'final_answer', parameters: { type: 'object' } }];
      const { value } = encodeMessagesRequest(request(loop, { model: 'claude-sonnet-4-6', tools, toolChoice: { name: 'final_answer' }, reasoning: { effort: 'low' } }));
      expect(value.thinking).to.equal(undefined);
      expect(value.output_config).to.deep.equal({ effort: 'low' });
      expect((value.messages as Json[])[1]).to.deep.equal({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} }] });
      // Not forced: thinking on, the signed block goes back.
      const free = encodeMessagesRequest(request(loop, { model: 'claude-sonnet-4-6', tools, reasoning: { effort: 'low' } })).value;
      expect(free.thinking).to.deep.equal({ type: 'adaptive' });
      expect(((free.messages as Json[])[1].content as Json[])[0]).to.deep.equal({ type: 'thinking', thinking: 'plan', signature: 'sig' });
    });

    it('replays reasoning only when it came from a Messages upstream with a signature or redacted data', () => {
      const { value } = encodeMessagesRequest(request([
        hi,
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'mine', signature: 'sig', provider: 'messages' },
            { type: 'reasoning', text: '', redactedData: 'opaque', provider: 'messages' },
            { type: 'reasoning', text: 'unsigned', provider: 'messages' },
            { type: 'reasoning', text: 'gemini thought', signature: 'g-sig', provider: 'gemini' },
            { type: 'reasoning', text: '', redactedData: 'enc', provider: 'responses' },
            { type: 'text', text: 'answer' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'more' }] },
      ]));
      expect((value.messages as Json[])[1]).to.deep.equal({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'mine', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'answer' },
        ],
      });
    });

    it('drops an assistant turn left empty and merges its neighbours', () => {
      const { value } = encodeMessagesRequest(request([
        hi,
        { role: 'assistant', content: [{ type: 'reasoning', text: 'x', provider: 'gemini' }] },
        { role: 'user', content: [{ type: 'text', text: 'again' }] },
      ]));
      expect(value.messages).to.deep.equal([{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'text', text: 'again' }] }]);
    });

    it('leaves out empty text blocks and trims the trailing whitespace of an assistant prefill', () => {
      const { value } = encodeMessagesRequest(request([
        { role: 'user', content: [{ type: 'text', text: '' }, { type: 'text', text: 'q' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'The answer is ' }] },
      ]));
      expect(value.messages).to.deep.equal([
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'The answer is' }] },
      ]);
    });

    it('leaves out whitespace-only text (Anthropic refuses it): before a tool call, in a tool result, in the system prompt', () => {
      const { value } = encodeMessagesRequest({
        ...request([
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }, { type: 'text', text: ' ' }] },
          { role: 'assistant', content: [{ type: 'text', text: '\n\n' }, { type: 'tool_call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_a', content: [{ type: 'text', text: '\n' }] }] },
        ]),
        system: [' \n', 'Be brief.'],
      });
      expect(value.system).to.deep.equal([{ type: 'text', text: 'Be brief.' }]);
      expect(value.messages).to.deep.equal([
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_a' }] },
      ]);
    });

    it('refuses a user message of blank text only after the assistant\'s answer (left out, the answer would become a prefill)', () => {
      const run = (): unknown => encodeMessagesRequest(request([hi, { role: 'assistant', content: [{ type: 'text', text: 'Rain taps' }] }, { role: 'user', content: [{ type: 'text', text: '\n' }] }]));
      expect(run).to.throw('a user message after the assistant\'s answer holds no text but whitespace');
    });

    it('leaves out a user message of blank text only that follows a user turn (Codex\'s context, a tool result): the turn stays', () => {
      const { value } = encodeMessagesRequest(request([
        hi,
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'done' }] }] },
        { role: 'user', content: [{ type: 'text', text: '\n' }] },
      ]));
      expect((value.messages as Array<{ role: string }>).map((m) => m.role)).to.deep.equal(['user', 'assistant', 'user']);
    });

    it('maps tool call ids Anthropic would reject the same way in tool_use and tool_result', () => {
      const { value } = encodeMessagesRequest(request([
        hi,
        { role: 'assistant', content: [{ type: 'tool_call', id: 'functions.get:0', name: 'get', arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'functions.get:0', content: [{ type: 'text', text: 'r' }] }] },
      ]));
      const messages = value.messages as Array<{ content: Json[] }>;
      expect(messages[1].content[0].id).to.equal('functions_get_0');
      expect(messages[2].content[0].tool_use_id).to.equal('functions_get_0');
    });

    it('sends tool call arguments that are not a JSON object (a call cut short earlier) as {}, with a warning', () => {
      const { value, warnings } = encodeMessagesRequest(request([hi, { role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{"x":' }] }]));
      expect((value.messages as Array<{ content: Json[] }>)[1].content[0]).to.deep.include({ type: 'tool_use', name: 'f', input: {} });
      expect(warnings).to.deep.equal(['messages[1].content[0].arguments: not a JSON object, sent as {}']);
    });

    it('rejects a request with no content left to send', () => {
      const err = encodeError(request([{ role: 'user', content: [{ type: 'text', text: '' }] }]));
      expect(err).to.deep.include({ code: 'GW_INVALID_REQUEST', message: 'a user message at the start of the conversation holds no text but whitespace, which Anthropic refuses; send the user\'s words' });
    });
  });

  describe('media', () => {
    it('names an image by the type its bytes tell, whatever it was labelled (Anthropic refuses a mismatch)', () => {
      const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString('base64');
      const { value } = encodeMessagesRequest(request([{ role: 'user', content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: jpeg } }] }]));
      expect((value.messages as Json[])[0].content).to.deep.equal([{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: jpeg } }]);
    });


    it('sends base64 and URL images, PDFs, URL documents and text files as image/document blocks', () => {
      const { value } = encodeMessagesRequest(request([{
        role: 'user',
        content: [
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG } },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/a.jpg' } },
          { type: 'image', source: { kind: 'url', url: `data:image/png;base64,${PNG}` } },
          { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'r.pdf' },
          { type: 'file', source: { kind: 'url', url: 'https://example.com/b.pdf' } },
          { type: 'file', source: { kind: 'base64', mediaType: 'text/plain', data: Buffer.from('notes').toString('base64') } },
        ],
      }]));
      expect((value.messages as Json[])[0]).to.deep.equal({
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'r.pdf' },
          { type: 'document', source: { type: 'url', url: 'https://example.com/b.pdf' } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' } },
        ],
      });
    });

    const refused: Array<[string, UnifiedMessage['content'][number], string]> = [
      ['audio', { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'UklGRg==' } }, 'audio input (audio/wav) is not accepted'],
      ['video', { type: 'video', source: { kind: 'url', url: 'https://example.com/v.mp4' } }, 'video input is not accepted'],
      ['a TIFF image', { type: 'image', source: { kind: 'base64', mediaType: 'image/tiff', data: 'SUkq' } }, 'image/tiff is not accepted'],
      ['a Word file', { type: 'file', source: { kind: 'base64', mediaType: 'application/msword', data: 'AAAA' } }, 'application/msword is not accepted'],
    ];
    for (const [name, part, text] of refused) {
      it(`answers 415 for ${name}, naming the field and the type`, () => {
        const err = encodeError(request([{ role: 'user', content: [{ type: 'text', text: 'look' }, part] }]));
        expect(err.code).to.equal('GW_MEDIA_NOT_ALLOWED');
        expect(err.status).to.equal(415);
        expect(err.param).to.equal('messages[0].content[1]');
        expect(err.message).to.contain('messages[0].content[1]').and.contain(text);
      });
    }

    it('answers 415 for audio inside a tool result, naming the nested field', () => {
      const err = encodeError(request([
        hi,
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c', content: [{ type: 'audio', source: { kind: 'base64', mediaType: 'audio/mp3', data: 'AA==' } }] }] },
      ]));
      expect(err).to.deep.include({ code: 'GW_MEDIA_NOT_ALLOWED', param: 'messages[2].content[0].content[0]' });
    });
  });

  describe('parameters', () => {
    it('defaults max_tokens to 4096 and sends system as text blocks', () => {
      const { value } = encodeMessagesRequest(request([hi], { system: ['a', 'b'] }));
      expect(value.max_tokens).to.equal(4096);
      expect(value.system).to.deep.equal([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]);
    });

    it('maps tools, built-in web search and every tool choice', () => {
      const tools = [{ name: 'f', description: 'd', parameters: { type: 'object', properties: { a: { const: 1 } } }, strict: true }, { name: 'g', parameters: {} }];
      const choice = (toolChoice: UnifiedRequest['toolChoice'], parallelToolCalls?: boolean) =>
        encodeMessagesRequest(request([hi], { tools, toolChoice, parallelToolCalls, builtinTools: [{ type: 'web_search' }] })).value;
      const body = choice('auto');
      expect(body.tools).to.deep.equal([
        { name: 'f', description: 'd', input_schema: { type: 'object', properties: { a: { const: 1 } } } },
        { name: 'g', input_schema: { type: 'object', properties: {} } },
        { type: 'web_search_20250305', name: 'web_search' },
      ]);
      expect(body.tool_choice).to.deep.equal({ type: 'auto' });
      expect(choice('required').tool_choice).to.deep.equal({ type: 'any' });
      expect(choice('none').tool_choice).to.deep.equal({ type: 'none' });
      expect(choice({ name: 'f' }, false).tool_choice).to.deep.equal({ type: 'tool', name: 'f', disable_parallel_tool_use: true });
      expect(choice(undefined, false).tool_choice).to.deep.equal({ type: 'auto', disable_parallel_tool_use: true });
      expect(choice(undefined).tool_choice).to.equal(undefined);
    });

    it('sends no tool_choice without tools', () => {
      expect(encodeMessagesRequest(request([hi], { toolChoice: 'required' })).value).to.not.have.property('tool_choice');
    });

    it('maps sampling, stop sequences and the end user', () => {
      const { value } = encodeMessagesRequest(request([hi], { temperature: 0.3, topK: 5, stop: ['END', ' '], user: 'u-1', stream: true, maxTokens: 100 }));
      expect(value).to.deep.include({ temperature: 0.3, top_k: 5, stop_sequences: ['END'], metadata: { user_id: 'u-1' }, stream: true, max_tokens: 100 });
      expect(encodeMessagesRequest(request([hi], { topP: 0.9 })).value).to.include({ top_p: 0.9 });
    });

    it('keeps temperature and drops top_p when both come (recent Claude models refuse the pair), with a warning', () => {
      const { value, warnings } = encodeMessagesRequest(request([hi], { temperature: 0.7, topP: 1 }));
      expect(value).to.include({ temperature: 0.7 });
      expect(value).to.not.have.property('top_p');
      expect(warnings).to.deep.equal(['top_p: dropped, Claude takes temperature or top_p, not both']);
      // With thinking, a temperature other than 1 is dropped first: top_p (≥ 0.95) is then the one sent.
      expect(encodeMessagesRequest(request([hi], { reasoning: { enabled: true, budgetTokens: 2000 }, temperature: 0.2, topP: 0.97, maxTokens: 8000 })).value).to.include({ top_p: 0.97 });
    });

    it('sends a JSON schema response format as output_config.format, and JSON mode (no schema) as a line of the system prompt', () => {
      const schema = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
      expect(encodeMessagesRequest(request([hi], { responseFormat: { type: 'json_schema', name: 'x', schema } })).value.output_config).to.deep.equal({
        format: { type: 'json_schema', schema },
      });
      const jsonObject = encodeMessagesRequest(request([hi], { system: ['Be brief.'], responseFormat: { type: 'json_object' } }));
      expect(jsonObject.value).to.not.have.property('output_config');
      expect(jsonObject.value.system).to.deep.equal([
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Answer with valid JSON only, with no text before or after it.' },
      ]);
    });

    it('warns about what the Messages API has no field for', () => {
      const { value, warnings } = encodeMessagesRequest(request([hi], { seed: 1, presencePenalty: 0.5, frequencyPenalty: 0.5 }));
      expect(value).to.not.have.any.keys('seed', 'presence_penalty', 'frequency_penalty');
      expect(warnings).to.have.length(3);
    });

    it('refuses a Responses request that relies on upstream-stored state', () => {
      const err = encodeError(request([hi], { extensions: { responses: { previous_response_id: 'resp_1' } } }));
      expect(err).to.deep.include({ code: 'GW_INVALID_REQUEST', param: 'previous_response_id' });
    });
  });

  describe('thinking', () => {
    const thinking = (reasoning: UnifiedRequest['reasoning'], extra: Partial<UnifiedRequest> = {}) =>
      encodeMessagesRequest(request([hi], { reasoning, ...extra }));

    it('maps an explicit budget and keeps max_tokens above it', () => {
      expect(thinking({ enabled: true, budgetTokens: 10000 }, { maxTokens: 16000 }).value).to.deep.include({
        max_tokens: 16000,
        thinking: { type: 'enabled', budget_tokens: 10000 },
      });
      const raised = thinking({ enabled: true, budgetTokens: 8000 }, { maxTokens: 1000 });
      expect(raised.value).to.deep.include({ max_tokens: 9000, thinking: { type: 'enabled', budget_tokens: 8000 } });
      expect(raised.warnings.join(' ')).to.contain('max_tokens');
      expect(thinking({ enabled: true, budgetTokens: 8000 }).value.max_tokens).to.equal(8000 + 4096);
    });

    it('raises max_tokens only as far as the model takes (Codex xhigh on Sonnet 4.5, on Opus 4.1), the budget then leaving room for the answer', () => {
      const sonnet = thinking({ enabled: true, effort: 'xhigh' }, { model: 'claude-sonnet-4-5', maxTokens: 32000 });
      expect(sonnet.value).to.deep.include({ max_tokens: 64000, thinking: { type: 'enabled', budget_tokens: 32768 } });
      const opus = thinking({ enabled: true, effort: 'max' }, { model: 'claude-opus-4-1-20250805', maxTokens: 32000 });
      expect(opus.value).to.deep.include({ max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 32000 - 4096 } });
      // A higher effort never thinks less than a lower one.
      const high = thinking({ enabled: true, effort: 'high' }, { model: 'claude-opus-4-1-20250805', maxTokens: 32000 });
      expect((high.value.thinking as { budget_tokens: number }).budget_tokens).to.be.below(32000 - 4096);
      // A budget just under the limit leaves the answer the default room, not the few tokens above the budget.
      const tight = thinking({ enabled: true, budgetTokens: 31500 }, { model: 'claude-opus-4-1', maxTokens: 31000 });
      expect(tight.value).to.deep.include({ max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 32000 - 4096 } });
      // A client's own max_tokens above the limit is its own: kept.
      expect(thinking({ enabled: true, budgetTokens: 8000 }, { model: 'claude-sonnet-4-5', maxTokens: 70000 }).value.max_tokens).to.equal(70000);
      // A model the gateway does not know is not capped.
      expect(thinking({ enabled: true, effort: 'xhigh' }, { model: 'vendor-model', maxTokens: 32000 }).value.max_tokens).to.equal(64768);
    });

    it('sends adaptive thinking another format asked for as adaptive to a model that takes it, max_tokens kept; a budget to an older one', () => {
      const current = thinking({ enabled: true, adaptive: true }, { model: 'claude-sonnet-4-6', maxTokens: 1000 });
      expect(current.value).to.deep.include({ max_tokens: 1000, thinking: { type: 'adaptive' } });
      expect(current.warnings).to.deep.equal([]);
      const withEffort = thinking({ enabled: true, adaptive: true, effort: 'low' }, { model: 'claude-opus-4-7', maxTokens: 2000 });
      // Opus 4.7 leaves thinking text out unless asked: a client that asked for thinking gets its summary.
      expect(withEffort.value).to.deep.include({ max_tokens: 2000, thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'low' } });
      const older = thinking({ enabled: true, adaptive: true }, { model: 'claude-sonnet-4-5', maxTokens: 20000 });
      expect(older.value).to.deep.include({ thinking: { type: 'enabled', budget_tokens: 8192 } });
      // An effort alone from another format is adaptive thinking at that effort on 4.6+.
      expect(thinking({ enabled: true, effort: 'high' }, { model: 'claude-sonnet-4-6', maxTokens: 3000 }).value).to.deep.include({ max_tokens: 3000, thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
      // A budget the client gave wins over adaptive.
      expect(thinking({ enabled: true, adaptive: true, budgetTokens: 3000 }, { model: 'claude-sonnet-4-6', maxTokens: 8000 }).value.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 3000 });
    });

    it('on adaptive-only models (Opus 4.7+), sends a budget as adaptive thinking at its effort, max_tokens as asked', () => {
      const budget = thinking({ enabled: true, budgetTokens: 8192 }, { model: 'claude-opus-4-7', maxTokens: 4000 });
      expect(budget.value).to.deep.include({ max_tokens: 4000, thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'medium' } });
      expect(budget.warnings).to.deep.equal(['thinking: claude-opus-4-7 thinks adaptively only; budget_tokens 8192 sent as effort medium']);
      // An effort that set the budget is kept; minimal is below the lowest effort.
      expect(thinking({ enabled: true, effort: 'minimal', budgetTokens: 1024 }, { model: 'claude-opus-4-8' }).value).to.deep.include({ output_config: { effort: 'low' } });
      // Effort alone (a chat client's reasoning_effort): adaptive, thinking text left as the model gives it.
      expect(thinking({ effort: 'high' }, { model: 'claude-opus-4-7' }).value).to.deep.include({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
      // Thoughts asked to be shown (Responses reasoning.summary, Gemini includeThoughts).
      expect(thinking({ includeThoughts: true, effort: 'high' }, { model: 'claude-opus-4-7' }).value.thinking).to.deep.equal({ type: 'adaptive', display: 'summarized' });
      expect(thinking({ enabled: false }, { model: 'claude-opus-4-7' }).value.thinking).to.deep.equal({ type: 'disabled' });
    });

    it('sends xhigh as max to models before Opus 4.7, and as it is to those', () => {
      expect(thinking({ effort: 'xhigh' }, { model: 'claude-sonnet-4-6' }).value).to.deep.include({ output_config: { effort: 'max' } });
      expect(thinking({ effort: 'xhigh' }, { model: 'claude-opus-4-7' }).value).to.deep.include({ output_config: { effort: 'xhigh' } });
    });

    it('leaves thinking out of a conversation that ends with the assistant\'s text (a prefill)', () => {
      const { value, warnings } = encodeMessagesRequest(request([hi, { role: 'assistant', content: [{ type: 'text', text: '{"color":' }] }], { model: 'claude-sonnet-4-5', maxTokens: 20000, reasoning: { enabled: true, budgetTokens: 8000 } }));
      expect(value).not.to.have.property('thinking');
      expect(value.max_tokens).to.equal(20000);
      expect(warnings).to.include('thinking: left out because the conversation ends with an assistant message (a prefill), which the API does not allow with thinking');
    });

    it('drops temperature, top_p and top_k for adaptive-only models, which take none', () => {
      const { value, warnings } = encodeMessagesRequest(request([hi], { model: 'claude-opus-4-7', temperature: 0.2, topP: 0.9, topK: 5 }));
      expect(value).not.to.have.any.keys('temperature', 'top_p', 'top_k');
      expect(warnings).to.deep.equal([
        'temperature: dropped, claude-opus-4-7 takes no sampling parameters',
        'top_p: dropped, claude-opus-4-7 takes no sampling parameters',
        'top_k: dropped, claude-opus-4-7 takes no sampling parameters',
      ]);
    });

    it('raises a budget below 1024 to 1024', () => {
      expect(thinking({ budgetTokens: 100 }, { maxTokens: 5000 }).value.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 1024 });
    });

    it('maps effort from other formats to a budget', () => {
      const budgets = { minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 32768, max: 32768 } as const;
      for (const [effort, budget] of Object.entries(budgets)) {
        const { value } = thinking({ effort: effort as keyof typeof budgets }, { maxTokens: 64000 });
        expect(value.thinking, effort).to.deep.equal({ type: 'enabled', budget_tokens: budget });
        expect(value, effort).to.not.have.property('output_config');
      }
    });

    it('sends thinking disabled when switched off', () => {
      expect(thinking({ enabled: false }).value.thinking).to.deep.equal({ type: 'disabled' });
    });

    it('reads a budget of 0 alone as thinking off (a chat client\'s budget_tokens: 0, as Gemini reads it), keeping the sampling settings', () => {
      const { value } = thinking({ budgetTokens: 0 }, { temperature: 0.2 });
      expect(value.thinking).to.deep.equal({ type: 'disabled' });
      expect(value.temperature).to.equal(0.2);
    });

    it('drops sampling settings thinking does not allow, with warnings', () => {
      const { value, warnings } = thinking({ enabled: true, budgetTokens: 2000 }, { temperature: 0.2, topK: 3, topP: 0.5, maxTokens: 8000 });
      expect(value).to.not.have.any.keys('temperature', 'top_k', 'top_p');
      expect(warnings).to.have.length(3);
    });

    it('leaves thinking out when a tool is forced', () => {
      const { value, warnings } = thinking({ enabled: true, budgetTokens: 2000 }, {
        tools: [{ name: 'f', parameters: { type: 'object' } }],
        toolChoice: { name: 'f' },
        temperature: 0.2,
      });
      expect(value).to.not.have.property('thinking');
      expect(value.temperature).to.equal(0.2);
      expect(warnings.join(' ')).to.contain('thinking');
    });

    describe('a tool loop whose last assistant turn has no thinking to send back', () => {
      const tools = [{ name: 'get_weather', parameters: { type: 'object' } }];
      const call: UnifiedMessage = { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{}' }] };
      const result: UnifiedMessage = { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: 'sunny' }] }] };
      const signed: UnifiedMessage['content'][number] = { type: 'reasoning', text: 'hmm', signature: 'sig', provider: 'messages' };

      it('leaves thinking out, with a warning, when another format asked for it (the API would answer 400)', () => {
        const { value, warnings } = encodeMessagesRequest(request([hi, call, result], { tools, reasoning: { enabled: true, effort: 'low' } }));
        expect(value).to.not.have.property('thinking');
        expect(value.max_tokens).to.equal(4096);
        expect(warnings.join(' ')).to.contain('thinking: left out');
      });

      it('also when the turn carries reasoning from another provider, which is dropped', () => {
        const foreign: UnifiedMessage = { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm', provider: 'gemini', signature: 'g' }, ...call.content] };
        const { value } = encodeMessagesRequest(request([hi, foreign, result], { tools, reasoning: { enabled: true, budgetTokens: 2048 } }));
        expect(value).to.not.have.property('thinking');
      });

      it('keeps thinking when the turn opens with signed Messages thinking', () => {
        const withThinking: UnifiedMessage = { role: 'assistant', content: [signed, ...call.content] };
        const { value } = encodeMessagesRequest(request([hi, withThinking, result], { tools, reasoning: { enabled: true, budgetTokens: 2048 } }));
        expect(value.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 2048 });
        expect((value.messages as Json[])[1].content).to.deep.include({ type: 'thinking', thinking: 'hmm', signature: 'sig' });
      });

      it('keeps thinking when the loop opened with signed thinking and a later call came without (a tool loop is one turn)', () => {
        const opening: UnifiedMessage = { role: 'assistant', content: [signed, ...call.content] };
        const later: UnifiedMessage = { role: 'assistant', content: [{ type: 'tool_call', id: 'call_2', name: 'get_weather', arguments: '{}' }] };
        const laterResult: UnifiedMessage = { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_2', content: [{ type: 'text', text: 'rain' }] }] };
        const { value } = encodeMessagesRequest(request([hi, opening, result, later, laterResult], { tools, reasoning: { enabled: true, budgetTokens: 2048 } }));
        expect(value.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 2048 });
        expect((value.messages as Json[]).map((m) => (m.content as Json[]).map((block) => block.type).join(','))).to.deep.equal(['text', 'thinking,tool_use', 'tool_result', 'tool_use', 'tool_result']);
        // The loop's head is what counts: signed thinking only at a later call does not make up for an unsigned opening.
        const { value: unsignedHead } = encodeMessagesRequest(request([hi, call, result, { role: 'assistant', content: [signed, ...later.content] }, laterResult], { tools, reasoning: { enabled: true, budgetTokens: 2048 } }));
        expect(unsignedHead).to.not.have.property('thinking');
      });

      it('counts a user turn that answers the calls as part of the loop, whatever else it carries (a screenshot, more text)', () => {
        const more: UnifiedMessage = { role: 'user', content: [{ type: 'text', text: 'and Tokyo too' }] };
        const { value } = encodeMessagesRequest(request([hi, call, result, more], { tools, reasoning: { enabled: true, budgetTokens: 2048 } }));
        // The tool message and the user message after it are one user turn to Anthropic: tool_result and text.
        expect((value.messages as Json[]).map((m) => (m.content as Json[]).map((block) => block.type).join(','))).to.deep.equal(['text', 'tool_use', 'tool_result,text']);
        expect(value).to.not.have.property('thinking');
      });

      it("leaves adaptive thinking out too when the loop's first message has none, though a later step has (its head's thinking may be lost)", () => {
        const later: UnifiedMessage = { role: 'assistant', content: [signed, { type: 'tool_call', id: 'call_2', name: 'get_weather', arguments: '{}' }] };
        const laterResult: UnifiedMessage = { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_2', content: [{ type: 'text', text: 'rain' }] }] };
        // The head's stored thinking expired or its row was damaged: the API would see a loop opening with tool_use.
        const { value } = encodeMessagesRequest(request([hi, call, result, later, laterResult], { model: 'claude-opus-4-6', tools, reasoning: { effort: 'medium' } }));
        expect(value).to.not.have.property('thinking');
      });

      it('keeps thinking once the tool loop is over (the last assistant turn is plain text)', () => {
        const answer: UnifiedMessage = { role: 'assistant', content: [{ type: 'text', text: 'It is sunny.' }] };
        const { value } = encodeMessagesRequest(request([hi, call, result, answer, hi], { tools, reasoning: { enabled: true, budgetTokens: 2048 } }));
        expect(value.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 2048 });
      });

      it("sends a Messages client's own thinking as asked", () => {
        const body = decodeMessagesRequest({
          model: 'm',
          max_tokens: 4096,
          thinking: { type: 'enabled', budget_tokens: 1024 },
          tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
          messages: [
            { role: 'user', content: 'x' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
          ],
        });
        expect(encodeMessagesRequest(body).value.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 1024 });
      });
    });

    it('keeps a Messages client effort without thinking as effort only', () => {
      const body = decodeMessagesRequest({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'x' }], output_config: { effort: 'low' } });
      const { value } = encodeMessagesRequest(body);
      expect(value).to.not.have.property('thinking');
      expect(value.output_config).to.deep.equal({ effort: 'low' });
    });
  });
});
