import { expect } from 'chai';
import { decodeChatCompletionsRequest } from '../../../../core/codecs/chat-completions/decode-request';
import { encodeChatCompletionsRequest } from '../../../../core/codecs/chat-completions/encode-request';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import { fixtureJson } from '../../../helpers/fixtures';

function encode(request: UnifiedRequest): Record<string, unknown> {
  return encodeChatCompletionsRequest(request).value;
}

function base(extra: Partial<UnifiedRequest> = {}): UnifiedRequest {
  return { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, ...extra };
}

describe('encodeChatCompletionsRequest', () => {
  it('JSON mode (a Gemini client\'s application/json) asks for JSON in words when the prompt does not, as OpenAI requires for json_object', () => {
    const plain = encode(base({ system: ['Be brief.'], responseFormat: { type: 'json_object' } }));
    expect(plain.response_format).to.deep.equal({ type: 'json_object' });
    expect(plain.messages).to.deep.equal([
      { role: 'system', content: 'Be brief.\n\nAnswer with valid JSON only, with no text before or after it.' },
      { role: 'user', content: 'hi' },
    ]);
    expect(encode(base({ responseFormat: { type: 'json_object' } })).messages).to.deep.equal([
      { role: 'system', content: 'Answer with valid JSON only, with no text before or after it.' },
      { role: 'user', content: 'hi' },
    ]);
    const said = encode(base({ messages: [{ role: 'user', content: [{ type: 'text', text: 'List three colours as Json.' }] }], responseFormat: { type: 'json_object' } }));
    expect(said.messages).to.deep.equal([{ role: 'user', content: 'List three colours as Json.' }]);
  });

  describe('round trip of the fixtures (decode, then encode)', () => {
    it('request-basic: system message first, max_completion_tokens kept', () => {
      const body = encode(decodeChatCompletionsRequest(fixtureJson('openai-chat/request-basic.json')));
      // `developer` comes back as `system`, which every OpenAI-compatible upstream accepts.
      expect(body).to.deep.equal({
        model: 'gpt-4.1-mini',
        messages: [
          { role: 'system', content: 'You are a concise assistant.' },
          { role: 'user', content: 'Say hello in one short sentence.' },
        ],
        temperature: 0.2,
        max_completion_tokens: 64,
      });
    });

    it('request-stream: stream and include_usage kept', () => {
      const body = encode(decodeChatCompletionsRequest(fixtureJson('openai-chat/request-stream.json')));
      expect(body).to.include({ stream: true, max_completion_tokens: 64, temperature: 0.2 });
      expect(body.stream_options).to.deep.equal({ include_usage: true });
    });

    for (const name of ['request-tools.json', 'request-tool-result.json', 'request-vision.json']) {
      it(`${name} encodes back to the same body`, () => {
        const original = fixtureJson(`openai-chat/${name}`);
        expect(encode(decodeChatCompletionsRequest(original))).to.deep.equal(original);
      });
    }
  });

  it('always asks a streaming upstream for the usage chunk, whatever the client asked', () => {
    const body = encode(decodeChatCompletionsRequest({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }));
    expect(body.stream).to.equal(true);
    expect(body.stream_options).to.deep.equal({ include_usage: true });
  });

  it('refuses a web search asked for alone or forced (it would be answered unsearched), and drops one offered beside functions', () => {
    const search = { builtinTools: [{ type: 'web_search' as const }] };
    const refused = (request: UnifiedRequest): unknown => {
      try {
        encodeChatCompletionsRequest(request);
      } catch (error) {
        return isGatewayError(error) ? [error.status, error.param] : error;
      }
      return 'carried';
    };
    expect(refused(base(search))).to.deep.equal([400, 'tools']);
    const fn = { name: 'f', parameters: { type: 'object' } };
    expect(refused(base({ ...search, tools: [fn], toolChoice: { name: 'web_search' } }))).to.deep.equal([400, 'tool_choice']);
    expect(refused(base({ ...search, toolChoice: 'none' }))).to.equal('carried');
    const { value, warnings } = encodeChatCompletionsRequest(base({ ...search, tools: [fn] }));
    expect(value).not.to.have.property('web_search_options');
    expect(warnings).to.include('builtin tool web_search dropped: chat completions cannot express it');
    // Code execution alike: asked for alone, the model would answer as if it had run the code.
    expect(refused(base({ builtinTools: [{ type: 'code_execution' }] }))).to.deep.equal([400, 'tools']);
    expect(refused(base({ builtinTools: [{ type: 'code_execution' }], tools: [fn] }))).to.equal('carried');
  });

  it("carries a Responses client's text.verbosity as chat's verbosity", () => {
    const body = encode(base({ extensions: { responses: { text: { verbosity: 'low' }, prompt_cache_key: 'codex-session-1' } } }));
    expect(body.verbosity).to.equal('low');
    // And its prompt_cache_key, which chat takes too.
    expect(body.prompt_cache_key).to.equal('codex-session-1');
  });

  it('sends max_tokens back to a client that used it, and copies unknown fields back', () => {
    const body = encode(decodeChatCompletionsRequest({ model: 'm', max_tokens: 99, logprobs: true, top_k: 5, messages: [{ role: 'user', content: 'x' }] }));
    expect(body).to.include({ max_tokens: 99, logprobs: true, top_k: 5 });
    expect(body).not.to.have.property('max_completion_tokens');
  });

  it('encodes media: image and video as image_url, wav/mp3 as input_audio, other audio as image_url, files as file_data with a filename', () => {
    const body = encode(
      base({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { kind: 'url', url: 'https://x/y.png' }, detail: 'high' },
              { type: 'video', source: { kind: 'base64', mediaType: 'video/mp4', data: 'AAAA' } },
              { type: 'audio', source: { kind: 'base64', mediaType: 'audio/mpeg', data: 'BBBB' } },
              { type: 'audio', source: { kind: 'base64', mediaType: 'audio/flac', data: 'CCCC' } },
              { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' }, filename: 'a.pdf' },
              // OpenAI refuses file_data without a filename; an Anthropic document or Gemini inlineData has none.
              { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBF' } },
              // Chat takes only PDFs as files: a text document goes as its text, headed by its title.
              { type: 'file', source: { kind: 'base64', mediaType: 'text/plain', data: 'SGk=' } },
              { type: 'file', source: { kind: 'base64', mediaType: 'text/markdown', data: Buffer.from('# Notes\nok').toString('base64') }, filename: 'Notes' },
            ],
          },
        ],
      }),
    );
    expect(body.messages).to.deep.equal([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'high' } },
          { type: 'image_url', image_url: { url: 'data:video/mp4;base64,AAAA' } },
          { type: 'input_audio', input_audio: { data: 'BBBB', format: 'mp3' } },
          { type: 'image_url', image_url: { url: 'data:audio/flac;base64,CCCC' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBF', filename: 'document.pdf' } },
          { type: 'text', text: 'Hi' },
          { type: 'text', text: 'Notes\n\n# Notes\nok' },
        ],
      },
    ]);
  });

  it('sends one tool message per result and moves media from tool results into a following user message', () => {
    const body = encode(
      base({
        messages: [
          { role: 'assistant', content: [{ type: 'tool_call', id: 'toolu_1', name: 'shot', arguments: '{}' }, { type: 'tool_call', id: 'toolu_2', name: 'f', arguments: '{"a":1}' }] },
          {
            role: 'tool',
            content: [
              { type: 'tool_result', toolCallId: 'toolu_1', content: [{ type: 'text', text: 'see image' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'PNG' } }] },
              { type: 'tool_result', toolCallId: 'toolu_2', content: [{ type: 'text', text: 'ok' }] },
            ],
          },
        ],
      }),
    );
    expect(body.messages).to.deep.equal([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: '1', type: 'function', function: { name: 'shot', arguments: '{}' } },
          { id: '2', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: '1', content: 'see image' },
      { role: 'tool', tool_call_id: '2', content: 'ok' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,PNG' } }] },
    ]);
  });

  it("gives a Messages client's toolu_ call ids back as the chat upstream made them (Mistral refuses any other)", () => {
    const body = encode(
      base({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
          { role: 'assistant', content: [{ type: 'tool_call', id: 'toolu_D681PevKs', name: 'get_weather', arguments: '{}' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'toolu_D681PevKs', content: [{ type: 'text', text: 'sunny' }] }] },
        ],
      }),
    );
    expect((body.messages as unknown[]).slice(1)).to.deep.equal([
      { role: 'assistant', content: null, tool_calls: [{ id: 'D681PevKs', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'D681PevKs', content: 'sunny' },
    ]);
  });

  it('answers the calls of an assistant turn with tool messages right after it: text a Gemini client put between its function responses waits', () => {
    const call = (id: string) => ({ type: 'tool_call' as const, id, name: 'f', arguments: '{}' });
    const result = (id: string) => ({ type: 'tool_result' as const, toolCallId: id, content: [{ type: 'text' as const, text: `r${id}` }] });
    const body = encode(
      base({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [call('c1'), call('c2')] },
          { role: 'tool', content: [result('c1')] },
          { role: 'user', content: [{ type: 'text', text: 'note between results' }] },
          { role: 'tool', content: [result('c2')] },
          { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
        ],
      }),
    );
    expect((body.messages as Array<{ role: string; tool_call_id?: string; content: unknown }>).map((m) => m.tool_call_id ?? `${m.role}:${typeof m.content === 'string' ? m.content : ''}`)).to.deep.equal([
      'user:go',
      'assistant:',
      'c1',
      'c2',
      'user:note between results',
      'assistant:done',
    ]);
  });

  it('marks a failed tool result in its text (a tool message has no error flag), unless the text already says so', () => {
    const result = (id: string, text: string, isError?: boolean) => ({ type: 'tool_result' as const, toolCallId: id, content: [{ type: 'text' as const, text }], ...(isError ? { isError } : {}) });
    const body = encode(
      base({
        messages: [
          { role: 'assistant', content: ['a', 'b', 'c', 'd'].map((id) => ({ type: 'tool_call' as const, id, name: 'f', arguments: '{}' })) },
          { role: 'tool', content: [result('a', 'ENOENT: no such file', true), result('b', '<tool_use_error>File does not exist.</tool_use_error>', true), result('c', 'Error: denied', true), result('d', 'a.txt')] },
        ],
      }),
    );
    expect((body.messages as Array<{ content: string }>).slice(1).map((m) => m.content)).to.deep.equal([
      'Error: ENOENT: no such file',
      '<tool_use_error>File does not exist.</tool_use_error>',
      'Error: denied',
      'a.txt',
    ]);
  });

  it('replays reasoning a chat upstream produced (reasoning_content); signed reasoning of other providers is dropped', () => {
    const call = { type: 'tool_call' as const, id: 'toolu_D', name: 'get_w', arguments: '{}' };
    const body = encode(
      base({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          { role: 'assistant', content: [{ type: 'reasoning', text: 'mine', provider: 'chat-completions' }, { type: 'text', text: 'a' }] },
          { role: 'assistant', content: [{ type: 'reasoning', text: 'claude', signature: 'sig', provider: 'messages' }, { type: 'text', text: 'b' }] },
          { role: 'assistant', content: [{ type: 'reasoning', text: '', redactedData: 'opaque', provider: 'responses' }] },
          // DeepSeek's reasoning as Claude Code and Codex send it back: a thinking block with an empty signature, a
          // reasoning item with a summary and no encrypted content. DeepSeek answers 400 to a tool turn without it.
          { role: 'assistant', content: [{ type: 'reasoning', text: 'I should call get_w', signature: '', provider: 'messages' }, call] },
          { role: 'assistant', content: [{ type: 'reasoning', text: 'Codex too', provider: 'responses' }, call] },
        ],
      }),
    );
    const toolCalls = [{ id: 'D', type: 'function', function: { name: 'get_w', arguments: '{}' } }];
    expect(body.messages).to.deep.equal([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a', reasoning_content: 'mine' },
      { role: 'assistant', content: 'b' },
      { role: 'assistant', content: null, reasoning_content: 'I should call get_w', tool_calls: toolCalls },
      { role: 'assistant', content: null, reasoning_content: 'Codex too', tool_calls: toolCalls },
    ]);
  });

  it('sends a turn of reasoning alone (thinking cut short) with empty text, not null content, which only a tool turn may have', () => {
    const body = encode(
      base({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm', signature: '', provider: 'messages' }] },
          { role: 'user', content: [{ type: 'text', text: 'go on' }] },
        ],
      }),
    );
    expect((body.messages as unknown[])[1]).to.deep.equal({ role: 'assistant', content: '', reasoning_content: 'hmm' });
  });

  it('gives a call id longer than OpenAI takes (40) a short one of its own, the same for the call and its result', () => {
    const long = 'chatcmpl-tool-0123456789abcdef0123456789abcdef';
    const body = encode(
      base({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          { role: 'assistant', content: [{ type: 'tool_call', id: long, name: 'ls', arguments: '{}' }, { type: 'tool_call', id: 'call_short', name: 'ls', arguments: '{}' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: long, content: [{ type: 'text', text: 'a' }] }, { type: 'tool_result', toolCallId: 'call_short', content: [{ type: 'text', text: 'b' }] }] },
        ],
      }),
    );
    const [, assistant, first, second] = body.messages as Array<{ tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
    const ids = assistant.tool_calls!.map((call) => call.id);
    expect(ids[0]).to.match(/^call_[0-9a-f]{32}$/);
    expect(ids[1]).to.equal('call_short');
    expect([first.tool_call_id, second.tool_call_id]).to.deep.equal(ids);
  });

  it('sends a result whose call the history no longer holds (a sliding window cut it) as user text, not a tool message', () => {
    const body = encode(
      base({
        messages: [
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_gone', name: 'ls', content: [{ type: 'text', text: 'a.txt' }] }] },
          { role: 'user', content: [{ type: 'text', text: 'and now?' }] },
          { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'ls', arguments: '{}' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', name: 'ls', content: [{ type: 'text', text: 'b.txt' }] }] },
        ],
      }),
    );
    expect(body.messages).to.deep.equal([
      { role: 'user', content: 'ls result: a.txt' },
      { role: 'user', content: 'and now?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'b.txt' },
    ]);
  });

  it('keeps a mid-conversation system message in place', () => {
    const body = encode(base({ system: ['top'], messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }] }, { role: 'system', content: [{ type: 'text', text: 'mid' }] }] }));
    expect(body.messages).to.deep.equal([
      { role: 'system', content: 'top' },
      { role: 'user', content: 'a' },
      { role: 'system', content: 'mid' },
    ]);
  });

  it('maps reasoning settings to reasoning_effort (budget to the nearest effort, max to xhigh, off to none)', () => {
    expect(encode(base({ reasoning: { enabled: true, effort: 'low' } })).reasoning_effort).to.equal('low');
    expect(encode(base({ reasoning: { enabled: true, effort: 'max' } })).reasoning_effort).to.equal('xhigh');
    expect(encode(base({ reasoning: { enabled: true, budgetTokens: 1024 } })).reasoning_effort).to.equal('low');
    expect(encode(base({ reasoning: { enabled: true, budgetTokens: 8000 } })).reasoning_effort).to.equal('medium');
    expect(encode(base({ reasoning: { enabled: true, budgetTokens: 16000 } })).reasoning_effort).to.equal('high');
    expect(encode(base({ reasoning: { enabled: false } })).reasoning_effort).to.equal('none');
    expect(encode(base({}))).not.to.have.property('reasoning_effort');
  });

  it('omits tool_choice and parallel_tool_calls without tools (OpenAI rejects them), and drops builtin tools with a warning', () => {
    const { value, warnings } = encodeChatCompletionsRequest(base({ toolChoice: 'none', parallelToolCalls: false, builtinTools: [{ type: 'code_execution' }] }));
    expect(value).not.to.have.property('tool_choice');
    expect(value).not.to.have.property('parallel_tool_calls');
    expect(value).not.to.have.property('tools');
    expect(warnings).to.have.length(1);
  });

  it('encodes a named tool choice, the response format and the settings', () => {
    const body = encode(
      base({
        tools: [{ name: 'f', parameters: { type: 'object' } }],
        toolChoice: { name: 'f' },
        responseFormat: { type: 'json_schema', schema: { type: 'object' } },
        stop: ['x'],
        seed: 1,
        topP: 0.5,
        presencePenalty: 1,
        frequencyPenalty: 2,
        user: 'u',
      }),
    );
    expect(body.tools).to.deep.equal([{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }]);
    expect(body.tool_choice).to.deep.equal({ type: 'function', function: { name: 'f' } });
    expect(body.response_format).to.deep.equal({ type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object' } } });
    expect(body).to.include({ seed: 1, top_p: 0.5, presence_penalty: 1, frequency_penalty: 2, user: 'u' });
    expect(body.stop).to.deep.equal(['x']);
  });

  it("sends an end-user id past OpenAI's 64 characters (Claude Code's metadata.user_id) as a stable digest of it", () => {
    const claudeCode = JSON.stringify({ device_id: 'a'.repeat(64), account_uuid: '', session_id: '0f2a6c3e-5b1d-4c8e-9a7f-2d4b6e8a0c1f' });
    const first = encode(base({ user: claudeCode })).user as string;
    expect(first).to.match(/^user-[0-9a-f]{40}$/);
    expect(encode(base({ user: claudeCode })).user).to.equal(first);
    expect(encode(base({ user: `${claudeCode} ` })).user).not.to.equal(first);
    expect(encode(base({ user: 'x'.repeat(64) })).user).to.equal('x'.repeat(64));
  });

  it('answers 400 naming previous_response_id: a translated upstream has no stored responses', () => {
    try {
      encodeChatCompletionsRequest(base({ extensions: { responses: { previous_response_id: 'resp_1' } } }));
      expect.fail('expected a GatewayError');
    } catch (e) {
      expect(isGatewayError(e) && e.code).to.equal('GW_INVALID_REQUEST');
      expect(isGatewayError(e) && e.param).to.equal('previous_response_id');
    }
  });
});
