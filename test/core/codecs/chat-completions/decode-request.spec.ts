import { expect } from 'chai';
import { decodeChatCompletionsRequest } from '../../../../core/codecs/chat-completions/decode-request';
import { encodeChatCompletionsRequest } from '../../../../core/codecs/chat-completions/encode-request';
import { encodeMessagesRequest } from '../../../../core/codecs/messages/encode-request';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import { fixtureJson } from '../../../helpers/fixtures';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';

function body(extra: Record<string, unknown>): Record<string, unknown> {
  return { model: 'm', messages: [{ role: 'user', content: 'hi' }], ...extra };
}

function decodeError(input: unknown): { code: string; message: string; param?: string } {
  try {
    decodeChatCompletionsRequest(input);
  } catch (e) {
    if (isGatewayError(e)) return { code: e.code, message: e.message, param: e.param };
    throw e;
  }
  throw new Error('expected a GatewayError');
}

describe('decodeChatCompletionsRequest', () => {
  it("takes safety_identifier as the end-user id (Claude's metadata.user_id) when user is not given; a chat upstream gets it back as it came", () => {
    const request = decodeChatCompletionsRequest(body({ safety_identifier: 'sid-123' }));
    expect(request.user).to.equal('sid-123');
    expect(encodeMessagesRequest({ ...request, maxTokens: 10 }).value.metadata).to.deep.equal({ user_id: 'sid-123' });
    const chat = encodeChatCompletionsRequest(request).value;
    expect(chat).to.include({ safety_identifier: 'sid-123' });
    expect(chat).not.to.have.property('user');
    expect(decodeChatCompletionsRequest(body({ user: 'u-1', safety_identifier: 'sid-123' })).user).to.equal('u-1');
  });

  it('refuses a tool choice that requires a tool the request does not declare, as OpenAI does (a translation answered with text)', () => {
    const fn = { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } };
    expect(decodeError(body({ tool_choice: 'required' }))).to.deep.include({ param: 'tool_choice' });
    expect(decodeError(body({ tools: [fn], tool_choice: { type: 'function', function: { name: 'zz' } } }))).to.deep.include({ param: 'tool_choice.function.name' });
    const allowed = { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'f' } }, { type: 'function', function: { name: 'zz' } }] } };
    expect(decodeError(body({ tools: [fn], tool_choice: allowed }))).to.deep.include({ param: 'tool_choice.allowed_tools.tools[1].function.name', message: 'tool_choice.allowed_tools.tools[1].function.name: "zz" is not among the tools' });
    // Declared: carried; "auto" and "none" without tools ask for nothing.
    expect(decodeChatCompletionsRequest(body({ tools: [fn], tool_choice: 'required' })).toolChoice).to.equal('required');
    expect(decodeChatCompletionsRequest(body({ tool_choice: 'none' })).toolChoice).to.equal('none');
    // The spec's codeExecution tool is declared by that name, though it decodes to the built-in code_execution.
    const code = { type: 'function', function: { name: 'codeExecution' } };
    expect(decodeChatCompletionsRequest(body({ tools: [code], tool_choice: { type: 'function', function: { name: 'codeExecution' } } })).builtinTools).to.deep.equal([{ type: 'code_execution' }]);
  });

  describe('fixtures', () => {
    it('request-basic: a leading developer message becomes system, max_completion_tokens becomes maxTokens', () => {
      const request = decodeChatCompletionsRequest(fixtureJson('openai-chat/request-basic.json'));
      expect(request.model).to.equal('gpt-4.1-mini');
      expect(request.system).to.deep.equal(['You are a concise assistant.']);
      expect(request.messages).to.deep.equal([{ role: 'user', content: [{ type: 'text', text: 'Say hello in one short sentence.' }] }]);
      expect(request.temperature).to.equal(0.2);
      expect(request.maxTokens).to.equal(64);
      expect(request.stream).to.equal(false);
      expect(request.extensions).to.equal(undefined);
    });

    it('request-stream: stream with include_usage', () => {
      const request = decodeChatCompletionsRequest(fixtureJson('openai-chat/request-stream.json'));
      expect(request.stream).to.equal(true);
      expect(request.streamUsage).to.equal(true);
    });

    it('request-tools: nested function tools keep their schema keywords, tool_choice and parallel_tool_calls', () => {
      const request = decodeChatCompletionsRequest(fixtureJson('openai-chat/request-tools.json'));
      expect(request.tools).to.have.length(1);
      const [tool] = request.tools ?? [];
      expect(tool.name).to.equal('get_weather');
      expect(tool.description).to.equal('Get the current weather for a city.');
      expect(tool.strict).to.equal(true);
      expect(tool.parameters).to.include({ additionalProperties: false, type: 'object' });
      expect(request.toolChoice).to.equal('auto');
      expect(request.parallelToolCalls).to.equal(true);
    });

    it('request-tool-result: assistant tool_calls, and consecutive tool messages merged in order with the function name', () => {
      const request = decodeChatCompletionsRequest(fixtureJson('openai-chat/request-tool-result.json'));
      expect(request.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'tool']);
      expect(request.messages[1].content).to.deep.equal([
        { type: 'tool_call', id: 'call_Xy8mQ2vR6tLp0sWn4kJd9aBc', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
        { type: 'tool_call', id: 'call_Hf3nK7pQ1zVx5mRt8yLw2eGu', name: 'get_weather', arguments: '{"city":"Tokyo","unit":"celsius"}' },
      ]);
      expect(request.messages[2].content).to.deep.equal([
        { type: 'tool_result', toolCallId: 'call_Xy8mQ2vR6tLp0sWn4kJd9aBc', name: 'get_weather', content: [{ type: 'text', text: '{"temp_c":18,"condition":"cloudy"}' }] },
        { type: 'tool_result', toolCallId: 'call_Hf3nK7pQ1zVx5mRt8yLw2eGu', name: 'get_weather', content: [{ type: 'text', text: '{"temp_c":24,"condition":"sunny"}' }] },
      ]);
    });

    it('request-vision: a data-URI image becomes a base64 image part with its detail', () => {
      const request = decodeChatCompletionsRequest(fixtureJson('openai-chat/request-vision.json'));
      expect(request.messages[0].content).to.deep.equal([
        { type: 'text', text: 'What color is this pixel? Answer with one word.' },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG }, detail: 'low' , clientPath: 'messages[0].content[1]' },
      ]);
      expect(request.maxTokens).to.equal(16);
    });
  });

  describe('messages', () => {
    it('keeps a system message after the first user turn in place, with role system', () => {
      const request = decodeChatCompletionsRequest({
        model: 'm',
        messages: [
          { role: 'system', content: 'first' },
          { role: 'developer', content: [{ type: 'text', text: 'second' }, { type: 'text', text: 'line' }] },
          { role: 'user', content: 'hi' },
          { role: 'system', content: 'mid-conversation' },
          { role: 'user', content: 'again' },
        ],
      });
      expect(request.system).to.deep.equal(['first', 'second\nline']);
      expect(request.messages[1]).to.deep.equal({ role: 'system', content: [{ type: 'text', text: 'mid-conversation' }] });
    });

    it('classifies image_url parts by MIME type and by URL extension (audio and video ride in image_url, spec 4.1)', () => {
      const request = decodeChatCompletionsRequest(
        body({
          messages: [
            {
              role: 'user',
              content: [
                { type: 'image_url', image_url: { url: 'data:video/mp4;base64,AAAA' } },
                { type: 'image_url', image_url: { url: 'data:audio/mp3;base64,BBBB' } },
                { type: 'image_url', image_url: { url: 'https://example.com/clip.webm?x=1' } },
                { type: 'image_url', image_url: { url: 'https://example.com/picture' } },
              ],
            },
          ],
        }),
      );
      expect(request.messages[0].content).to.deep.equal([
        { type: 'video', source: { kind: 'base64', mediaType: 'video/mp4', data: 'AAAA' }, clientPath: 'messages[0].content[0]' },
        { type: 'audio', source: { kind: 'base64', mediaType: 'audio/mp3', data: 'BBBB' }, clientPath: 'messages[0].content[1]' },
        { type: 'video', source: { kind: 'url', url: 'https://example.com/clip.webm?x=1' }, clientPath: 'messages[0].content[2]' },
        { type: 'image', source: { kind: 'url', url: 'https://example.com/picture' }, clientPath: 'messages[0].content[3]' },
      ]);
    });

    it('refuses text in an image_url part with a 415 naming the part', () => {
      const error = decodeError(body({ messages: [{ role: 'user', content: [{ type: 'text', text: 'what' }, { type: 'image_url', image_url: { url: 'data:Text/Plain;charset=utf-8;base64,aGVsbG8=' } }] }] }));
      expect([error.code, error.param]).to.deep.equal(['GW_MEDIA_NOT_ALLOWED', 'messages[0].content[1].image_url.url']);
      expect(error.message).to.include('text/plain is not an image, audio or video');
    });

    it('reads bare base64 in image_url.url (spec 2.1: "a URL or base64 data"), its type from its bytes', () => {
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';
      const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1]).toString('base64');
      const request = decodeChatCompletionsRequest(
        body({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: png } }, { type: 'image_url', image_url: { url: jpeg, detail: 'low' } }] }] }),
      );
      expect(request.messages[0].content).to.deep.equal([
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: png }, clientPath: 'messages[0].content[0]' },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: jpeg }, detail: 'low' , clientPath: 'messages[0].content[1]' },
      ]);
      // Base64 of no type the gateway knows cannot be sent on as anything: a clear 400 rather than a bogus URL.
      const unknown = Buffer.from('just some text, not an image').toString('base64');
      const error = decodeError(body({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: unknown } }] }] }));
      expect(error.param).to.equal('messages[0].content[0].image_url.url');
      expect(error.message).to.match(/base64 data of a type that cannot be told/);
    });

    it('decodes input_audio and file parts (data URI, URL, bare base64 named by filename)', () => {
      const request = decodeChatCompletionsRequest(
        body({
          messages: [
            {
              role: 'user',
              content: [
                { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
                { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
                { type: 'file', file: { file_data: 'https://example.com/doc.pdf' } },
                { type: 'file', file: { file_data: 'SGVsbG8=', filename: 'notes.txt' } },
              ],
            },
          ],
        }),
      );
      expect(request.messages[0].content).to.deep.equal([
        { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'UklG' }, clientPath: 'messages[0].content[0]' },
        { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' }, filename: 'a.pdf' , clientPath: 'messages[0].content[1]' },
        { type: 'file', source: { kind: 'url', url: 'https://example.com/doc.pdf' }, clientPath: 'messages[0].content[2]' },
        { type: 'file', source: { kind: 'base64', mediaType: 'text/plain', data: 'SGVsbG8=' }, filename: 'notes.txt' , clientPath: 'messages[0].content[3]' },
      ]);
    });

    it('reads assistant reasoning_content as a chat-completions reasoning part before the text', () => {
      const request = decodeChatCompletionsRequest(
        body({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a', reasoning_content: 'thought' }, { role: 'user', content: 'q2' }] }),
      );
      expect(request.messages[1].content).to.deep.equal([
        { type: 'reasoning', text: 'thought', provider: 'chat-completions' },
        { type: 'text', text: 'a' },
      ]);
    });

    it('keeps an assistant refusal given as the message\'s refusal field (the SDK\'s message appended as it came)', () => {
      const request = decodeChatCompletionsRequest(
        body({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: null, refusal: 'I cannot help' }, { role: 'user', content: 'ok then b' }] }),
      );
      expect(request.messages.map((m) => [m.role, m.content])).to.deep.equal([
        ['user', [{ type: 'text', text: 'a' }]],
        ['assistant', [{ type: 'text', text: 'I cannot help' }]],
        ['user', [{ type: 'text', text: 'ok then b' }]],
      ]);
    });
  });

  describe('tools and settings', () => {
    it('turns a function tool named codeExecution with no other fields into the code_execution builtin', () => {
      const request = decodeChatCompletionsRequest(
        body({
          tools: [
            { type: 'function', function: { name: 'codeExecution' } },
            { type: 'function', function: { name: 'codeExecution', description: 'a real function' } },
          ],
        }),
      );
      expect(request.builtinTools).to.deep.equal([{ type: 'code_execution' }]);
      expect(request.tools?.map((t) => t.name)).to.deep.equal(['codeExecution']);
      expect(request.tools?.[0].parameters).to.deep.equal({ type: 'object', properties: {} });
    });

    it('maps stop (string or array), seed, penalties, response_format, user and a function tool_choice', () => {
      const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];
      const request = decodeChatCompletionsRequest(
        body({
          tools,
          tool_choice: { type: 'function', function: { name: 'f' } },
          stop: 'END',
          seed: 7,
          presence_penalty: 0.5,
          frequency_penalty: -0.5,
          top_p: 0.9,
          response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' }, strict: true } },
          user: 'u-1',
        }),
      );
      expect(request.stop).to.deep.equal(['END']);
      expect(request.toolChoice).to.deep.equal({ name: 'f' });
      expect(request).to.include({ seed: 7, presencePenalty: 0.5, frequencyPenalty: -0.5, topP: 0.9, user: 'u-1' });
      expect(request.responseFormat).to.deep.equal({ type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true });
      expect(decodeChatCompletionsRequest(body({ stop: ['a', 'b'] })).stop).to.deep.equal(['a', 'b']);
      expect(decodeChatCompletionsRequest(body({ response_format: { type: 'json_object' } })).responseFormat).to.deep.equal({ type: 'json_object' });
    });

    it('allowed_tools keeps only the allowed functions and their mode', () => {
      const request = decodeChatCompletionsRequest(
        body({
          tools: [{ type: 'function', function: { name: 'a' } }, { type: 'function', function: { name: 'b', parameters: {} } }],
          tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'b' } }] } },
        }),
      );
      expect(request.tools?.map((t) => t.name)).to.deep.equal(['b']);
      expect(request.toolChoice).to.equal('required');
    });

    it('maps reasoning_effort and budget_tokens; "none" switches reasoning off', () => {
      expect(decodeChatCompletionsRequest(body({ reasoning_effort: 'high' })).reasoning).to.deep.equal({ enabled: true, effort: 'high' });
      expect(decodeChatCompletionsRequest(body({ reasoning_effort: 'none' })).reasoning).to.deep.equal({ enabled: false });
      expect(decodeChatCompletionsRequest(body({ budget_tokens: 4000 })).reasoning).to.deep.equal({ budgetTokens: 4000 });
    });

    it("maps Anthropic's thinking object, as its OpenAI-SDK compatibility documents it for chat clients", () => {
      expect(decodeChatCompletionsRequest(body({ thinking: { type: 'enabled', budget_tokens: 2000 } })).reasoning).to.deep.equal({ enabled: true, budgetTokens: 2000 });
      expect(decodeChatCompletionsRequest(body({ thinking: { type: 'adaptive' } })).reasoning).to.deep.equal({ enabled: true, adaptive: true });
      expect(decodeChatCompletionsRequest(body({ thinking: { type: 'disabled' } })).reasoning).to.deep.equal({ enabled: false });
      expect(decodeChatCompletionsRequest(body({ thinking: { type: 'enabled', budget_tokens: 2000 }, budget_tokens: 3000 })).reasoning).to.deep.equal({ enabled: true, budgetTokens: 3000 });
    });

    it('uses max_completion_tokens over max_tokens, and remembers a client that sent only max_tokens', () => {
      expect(decodeChatCompletionsRequest(body({ max_tokens: 10, max_completion_tokens: 20 })).maxTokens).to.equal(20);
      const legacy = decodeChatCompletionsRequest(body({ max_tokens: 10 }));
      expect(legacy.maxTokens).to.equal(10);
      expect(legacy.extensions?.['chat-completions']).to.deep.equal({ max_tokens: 10 });
    });

    it('takes text and image modalities as the output modalities', () => {
      expect(decodeChatCompletionsRequest(body({ modalities: ['text'] })).outputModalities).to.deep.equal(['text']);
      expect(decodeChatCompletionsRequest(body({ modalities: ['image', 'text'] })).outputModalities).to.deep.equal(['image', 'text']);
      expect(decodeChatCompletionsRequest(body({})).outputModalities).to.equal(undefined);
    });

    it('keeps fields with no unified meaning in extensions, and web_search_options as the web_search builtin', () => {
      const request = decodeChatCompletionsRequest(
        body({ logprobs: true, metadata: { a: '1' }, store: false, n: 1, web_search_options: {}, stream: true, stream_options: { include_usage: false, include_obfuscation: false } }),
      );
      expect(request.extensions?.['chat-completions']).to.deep.equal({
        logprobs: true,
        metadata: { a: '1' },
        store: false,
        n: 1,
        web_search_options: {},
        stream_options: { include_obfuscation: false },
      });
      expect(request.builtinTools).to.deep.equal([{ type: 'web_search' }]);
      expect(request.streamUsage).to.equal(undefined);
    });

    it('accepts null for optional fields, as Python clients send them', () => {
      const request = decodeChatCompletionsRequest(body({ temperature: null, stop: null, tools: null, tool_choice: null, user: null, stream_options: null }));
      expect(request.temperature).to.equal(undefined);
      expect(request.stop).to.equal(undefined);
      expect(request.tools).to.equal(undefined);
    });
  });

  describe('invalid bodies answer GW_INVALID_REQUEST naming the field', () => {
    const cases: Array<[string, unknown, string]> = [
      ['not an object', 'hello', 'body'],
      ['no model', { messages: [{ role: 'user', content: 'x' }] }, 'model'],
      ['no messages', { model: 'm' }, 'messages'],
      ['empty messages', { model: 'm', messages: [] }, 'messages'],
      ['unknown role', { model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
      ['user without content', { model: 'm', messages: [{ role: 'user' }] }, 'messages[0].content'],
      ['content of the wrong type', { model: 'm', messages: [{ role: 'user', content: 5 }] }, 'messages[0].content'],
      ['unknown part type', { model: 'm', messages: [{ role: 'user', content: [{ type: 'video_url' }] }] }, 'messages[0].content[0].type'],
      ['image part without url', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, 'messages[0].content[0].image_url.url'],
      ['text part without text', { model: 'm', messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'messages[0].content[0].text'],
      ['tool message without tool_call_id', { model: 'm', messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
      ['tool call without function name', { model: 'm', messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: {} }] }] }, 'messages[0].tool_calls[0].function.name'],
      ['legacy function role', { model: 'm', messages: [{ role: 'user', content: 'x' }, { role: 'function', name: 'f', content: 'r' }] }, 'messages[1].role'],
      ['legacy functions field', body({ functions: [{ name: 'f' }] }), 'functions'],
      ['non-function tool', body({ tools: [{ type: 'custom', custom: { name: 'x' } }] }), 'tools[0].type'],
      ['tool without type', body({ tools: [{ function: { name: 'f' } }] }), 'tools[0].type'],
      ['content part without type', { model: 'm', messages: [{ role: 'user', content: [{ text: 'x' }] }] }, 'messages[0].content[0].type'],
      ['bad reasoning_effort', body({ reasoning_effort: 'extreme' }), 'reasoning_effort'],
      ['thinking budget given as a string', body({ thinking: { type: 'enabled', budget_tokens: '2000' } }), 'thinking.budget_tokens'],
      ['thinking budget with a fraction', body({ thinking: { type: 'enabled', budget_tokens: 2048.5 } }), 'thinking.budget_tokens'],
      ['more than one choice (a translation answers one)', body({ n: 2 }), 'n'],
      ['string temperature', body({ temperature: 'hot' }), 'temperature'],
      ['zero max_tokens', body({ max_tokens: 0 }), 'max_tokens'],
      ['max_tokens too large for a number (1e309 parses to Infinity)', body({ max_tokens: JSON.parse('1e309') as number }), 'max_tokens'],
      ['temperature too large for a number', body({ temperature: JSON.parse('-1e400') as number }), 'temperature'],
      ['json_schema without name', body({ response_format: { type: 'json_schema', json_schema: { schema: {} } } }), 'response_format.json_schema.name'],
      ['file part with only a file id', { model: 'm', messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] }] }, 'messages[0].content[0].file.file_id'],
      ['image in a system message', { model: 'm', messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }] }, 'messages[0].content[0].type'],
      ['refusal part in a user message', { model: 'm', messages: [{ role: 'user', content: [{ type: 'refusal', refusal: 'no' }] }] }, 'messages[0].content[0].type'],
      ['image data URI without a payload', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64' } }] }] }, 'messages[0].content[0].image_url.url'],
      ['image data URI that is not base64', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/svg+xml,<svg/>' } }] }] }, 'messages[0].content[0].image_url.url'],
      ['file data URI that is not base64', { model: 'm', messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: 'data:application/pdf,%25PDF' } }] }] }, 'messages[0].content[0].file.file_data'],
    ];
    for (const [name, input, param] of cases) {
      it(name, () => {
        const error = decodeError(input);
        expect(error.code).to.equal('GW_INVALID_REQUEST');
        if (param !== 'body') expect(error.param).to.equal(param);
        expect(error.message.startsWith(`${param}:`)).to.equal(true, error.message);
      });
    }

    it('explains the legacy function role', () => {
      expect(decodeError({ model: 'm', messages: [{ role: 'function', name: 'f', content: 'r' }] }).message).to.match(/legacy "function" role/);
    });
  });
});
