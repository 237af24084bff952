import { expect } from 'chai';
import { decodeResponsesRequest } from '../../../../core/codecs/responses/decode-request';
import { chatCompletionsCodec } from '../../../../core/codecs/chat-completions';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import { fixtureJson } from '../../../helpers/fixtures';

function body(extra: Record<string, unknown>): Record<string, unknown> {
  return { model: 'm', input: 'hi', ...extra };
}

function decodeError(input: unknown): { code: string; message: string; param?: string } {
  try {
    decodeResponsesRequest(input);
  } catch (e) {
    if (isGatewayError(e)) return { code: e.code, message: e.message, param: e.param };
    throw e;
  }
  throw new Error('expected a GatewayError');
}

describe('decodeResponsesRequest', () => {
  describe('fixtures', () => {
    it('request-basic: instructions become system, input_text parts, max_output_tokens, store kept as an extension', () => {
      const request = decodeResponsesRequest(fixtureJson('openai-responses/request-basic.json'));
      expect(request.system).to.deep.equal(['You are a concise assistant.']);
      expect(request.messages).to.deep.equal([{ role: 'user', content: [{ type: 'text', text: 'Say hello in one short sentence.' }] }]);
      expect(request.maxTokens).to.equal(64);
      expect(request.temperature).to.equal(0.2);
      expect(request.extensions?.responses).to.deep.equal({ store: false });
    });

    it('request-function-call: flat function tools with strict, tool_choice, parallel_tool_calls', () => {
      const request = decodeResponsesRequest(fixtureJson('openai-responses/request-function-call.json'));
      expect(request.tools).to.have.length(1);
      expect(request.tools?.[0]).to.include({ name: 'get_weather', description: 'Get the current weather for a city.', strict: true });
      expect(request.tools?.[0].parameters).to.include({ additionalProperties: false });
      expect(request.toolChoice).to.equal('auto');
      expect(request.parallelToolCalls).to.equal(true);
    });

    it('request-function-call-output: the replayed call is an assistant tool call, the output a tool result named after it', () => {
      const request = decodeResponsesRequest(fixtureJson('openai-responses/request-function-call-output.json'));
      expect(request.messages).to.deep.equal([
        { role: 'user', content: [{ type: 'text', text: "What's the weather in Paris, in celsius?" }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'call_Qm4nZ8xV2bT6yH0kL3pR7sWd', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' }] },
        {
          role: 'tool',
          content: [{ type: 'tool_result', toolCallId: 'call_Qm4nZ8xV2bT6yH0kL3pR7sWd', name: 'get_weather', content: [{ type: 'text', text: '{"temp_c":18,"condition":"cloudy"}' }] }],
        },
      ]);
    });
  });

  describe('input', () => {
    it('takes a plain string as one user message', () => {
      expect(decodeResponsesRequest(body({ input: 'hello' })).messages).to.deep.equal([{ role: 'user', content: [{ type: 'text', text: 'hello' }] }]);
    });

    it('keeps an assistant message that follows another as a message of its own (Codex commentary, then the answer)', () => {
      const request = decodeResponsesRequest(
        body({
          input: [
            { role: 'user', content: 'q' },
            { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Commentary: I will look.' }] },
            { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Final answer.' }] },
            { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
            { type: 'function_call_output', call_id: 'call_1', output: 'r1' },
          ],
        }),
      );
      expect(request.messages.map((m) => [m.role, m.content.map((part) => part.type)])).to.deep.equal([
        ['user', ['text']],
        ['assistant', ['text']],
        ['assistant', ['text', 'tool_call']],
        ['tool', ['tool_result']],
      ]);
      // A chat upstream gets them as two messages, not one run-together text.
      const chat = chatCompletionsCodec.encodeRequest(request).value as { messages: Array<{ role: string; content: unknown }> };
      expect(chat.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).to.deep.equal(['Commentary: I will look.', 'Final answer.']);
      // Reasoning between them (Claude's interleaved thinking, as a Responses client gets it) changes nothing.
      const interleaved = decodeResponsesRequest(
        body({
          input: [
            { role: 'user', content: 'q' },
            { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'a' }] },
            { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'I will look.' }] },
            { type: 'reasoning', id: 'rs_2', summary: [{ type: 'summary_text', text: 'b' }] },
            { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Final answer.' }] },
          ],
        }),
      );
      expect(interleaved.messages.map((m) => [m.role, m.content.map((part) => part.type)])).to.deep.equal([
        ['user', ['text']],
        ['assistant', ['reasoning', 'text']],
        ['assistant', ['reasoning', 'text']],
      ]);
    });

    it('groups reasoning, assistant text and calls into one assistant turn; keeps encrypted reasoning', () => {
      const request = decodeResponsesRequest(
        body({
          input: [
            { role: 'developer', content: 'be brief' },
            { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] },
            { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'one' }, { type: 'summary_text', text: 'two' }], encrypted_content: 'ENC' },
            { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me look.' }] },
            { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}' },
            { type: 'function_call', call_id: 'call_2', name: 'g', arguments: '{"x":1}' },
            { type: 'function_call_output', call_id: 'call_1', output: 'r1' },
            { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'r2' }, { type: 'input_image', image_url: 'https://x/y.png' }] },
            { role: 'system', content: 'late system' },
          ],
        }),
      );
      expect(request.system).to.deep.equal(['be brief']);
      expect(request.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'tool', 'system']);
      expect(request.messages[1].content).to.deep.equal([
        { type: 'reasoning', text: 'one\n\ntwo', provider: 'responses', id: 'rs_1', redactedData: 'ENC' },
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_call', id: 'call_1', name: 'f', arguments: '{}' },
        { type: 'tool_call', id: 'call_2', name: 'g', arguments: '{"x":1}' },
      ]);
      expect(request.messages[2].content).to.deep.equal([
        { type: 'tool_result', toolCallId: 'call_1', name: 'f', content: [{ type: 'text', text: 'r1' }] },
        { type: 'tool_result', toolCallId: 'call_2', name: 'g', content: [{ type: 'text', text: 'r2' }, { type: 'image', source: { kind: 'url', url: 'https://x/y.png' }, clientPath: 'input[7].output[1]' }] },
      ]);
      expect(request.messages[3]).to.deep.equal({ role: 'system', content: [{ type: 'text', text: 'late system' }] });
    });

    it('refuses text in an input_image with a 415 naming the part, as chat does', () => {
      const error = decodeError(body({ input: [{ role: 'user', content: [{ type: 'input_text', text: 'what' }, { type: 'input_image', image_url: 'data:text/plain;base64,aGVsbG8=' }] }] }));
      expect([error.code, error.param]).to.deep.equal(['GW_MEDIA_NOT_ALLOWED', 'input[0].content[1].image_url']);
      expect(error.message).to.include('text/plain is not an image, audio or video');
    });

    it('reads bare base64 in input_image.image_url, its type from its bytes', () => {
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';
      const request = decodeResponsesRequest(body({ input: [{ role: 'user', content: [{ type: 'input_image', image_url: png }] }] }));
      expect(request.messages[0].content).to.deep.equal([{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: png }, clientPath: 'input[0].content[0]' }]);
    });

    it('decodes input_image and input_file (data URI, URL) and input_audio', () => {
      const request = decodeResponsesRequest(
        body({
          input: [
            {
              role: 'user',
              content: [
                { type: 'input_image', image_url: 'data:image/png;base64,PNG', detail: 'low' },
                { type: 'input_file', file_data: 'data:application/pdf;base64,PDF', filename: 'a.pdf' },
                { type: 'input_file', file_url: 'https://x/doc.pdf' },
                { type: 'input_audio', input_audio: { data: 'WAV', format: 'wav' } },
              ],
            },
          ],
        }),
      );
      expect(request.messages[0].content).to.deep.equal([
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'PNG' }, detail: 'low' , clientPath: 'input[0].content[0]' },
        { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'PDF' }, filename: 'a.pdf' , clientPath: 'input[0].content[1]' },
        { type: 'file', source: { kind: 'url', url: 'https://x/doc.pdf' }, clientPath: 'input[0].content[2]' },
        { type: 'audio', source: { kind: 'base64', mediaType: 'audio/wav', data: 'WAV' }, clientPath: 'input[0].content[3]' },
      ]);
    });

    it('carries custom and local shell calls as tool calls, and drops server-side tool records with a warning', () => {
      const request = decodeResponsesRequest(
        body({
          input: [
            { role: 'user', content: 'patch it' },
            { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
            { type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: '*** Begin Patch' },
            { type: 'custom_tool_call_output', call_id: 'call_p', output: 'done' },
          ],
        }),
      );
      expect(request.messages[1].content).to.deep.equal([{ type: 'tool_call', id: 'call_p', name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' }]);
      expect(request.messages[2].content).to.deep.equal([{ type: 'tool_result', toolCallId: 'call_p', name: 'apply_patch', content: [{ type: 'text', text: 'done' }] }]);
      expect(request.warnings).to.deep.equal(['input[1]: web_search_call item dropped']);
    });
  });

  describe('tools and settings', () => {
    it('flattens Codex namespace tools, maps web_search and code_interpreter to builtins, drops unknown tool types with a warning', () => {
      const request = decodeResponsesRequest(
        body({
          tools: [
            { type: 'function', name: 'shell', parameters: { type: 'object' } },
            { type: 'namespace', name: 'collaboration', description: 'agents', tools: [{ type: 'function', name: 'spawn_agent', description: 'Spawns', parameters: { type: 'object' } }, { type: 'file_search' }] },
            { type: 'web_search' },
            { type: 'web_search_preview' },
            { type: 'code_interpreter', container: { type: 'auto' } },
            { type: 'computer_use_preview' },
          ],
        }),
      );
      expect(request.tools).to.deep.equal([
        { name: 'shell', parameters: { type: 'object' } },
        { name: 'spawn_agent', description: 'Spawns', parameters: { type: 'object' }, namespace: 'collaboration', namespaceDescription: 'agents' },
      ]);
      expect(request.builtinTools).to.deep.equal([{ type: 'web_search' }, { type: 'code_execution' }]);
      expect(request.warnings).to.deep.equal(['tools[1].tools[1]: tool type "file_search" dropped', 'tools[5]: tool type "computer_use_preview" dropped']);
    });

    it('refuses a tool_choice forcing a function the tools do not declare, or when there are no tools (every upstream refuses it)', () => {
      const fn = { type: 'function', name: 'read_file', parameters: { type: 'object' } };
      expect(decodeError(body({ tools: [fn], tool_choice: { type: 'function', name: 'nope' } }))).to.deep.include({ code: 'GW_INVALID_REQUEST', param: 'tool_choice.name' });
      expect(decodeError(body({ tool_choice: { type: 'function', name: 'read_file' } })).message).to.match(/"read_file" is not among the tools/);
      expect(decodeResponsesRequest(body({ tools: [fn], tool_choice: { type: 'function', name: 'read_file' } })).toolChoice).to.deep.equal({ name: 'read_file' });
    });

    it('makes a freeform (custom) tool a function of one string argument, its grammar in that argument, and lets tool_choice force it', () => {
      const grammar = { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' };
      const request = decodeResponsesRequest(
        body({
          tools: [
            { type: 'custom', name: 'apply_patch', description: 'Edit files. This is a FREEFORM tool.', format: grammar },
            { type: 'custom', name: 'note' },
          ],
          tool_choice: { type: 'custom', name: 'apply_patch' },
        }),
      );
      const [patch, note] = request.tools ?? [];
      expect(patch).to.deep.equal({
        name: 'apply_patch',
        description: 'Edit files. This is a FREEFORM tool.',
        parameters: {
          type: 'object',
          properties: { input: { type: 'string', description: 'The whole input of this tool, as plain text (not JSON). It must match this lark grammar:\nstart: begin_patch hunk+ end_patch' } },
          required: ['input'],
          additionalProperties: false,
        },
        freeform: { format: grammar },
      });
      expect(note).to.deep.include({ name: 'note', freeform: {} });
      expect(note.parameters).to.deep.include({ required: ['input'] });
      expect(request.toolChoice).to.deep.equal({ name: 'apply_patch' });
      expect(request.warnings).to.equal(undefined);
    });

    it('keeps a custom tool named in allowed_tools', () => {
      const request = decodeResponsesRequest(
        body({
          tools: [{ type: 'custom', name: 'apply_patch' }, { type: 'function', name: 'shell' }],
          tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'custom', name: 'apply_patch' }] },
        }),
      );
      expect(request.tools?.map((t) => t.name)).to.deep.equal(['apply_patch']);
      expect(request.toolChoice).to.equal('required');
    });

    it('offers a hosted tool (web search) only when allowed_tools names it', () => {
      const tools = [{ type: 'function', name: 'a' }, { type: 'function', name: 'b' }, { type: 'web_search' }];
      const without = decodeResponsesRequest(body({ tools, tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'b' }] } }));
      expect(without.tools?.map((t) => t.name)).to.deep.equal(['b']);
      expect(without.builtinTools).to.equal(undefined);
      const withSearch = decodeResponsesRequest(body({ tools, tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'web_search' }] } }));
      expect(withSearch.tools).to.deep.equal([]);
      expect(withSearch.builtinTools?.map((t) => t.type)).to.deep.equal(['web_search']);
    });

    it('maps reasoning effort and summary, text.format json_schema, tool_choice function and allowed_tools', () => {
      const request = decodeResponsesRequest(
        body({
          reasoning: { effort: 'high', summary: 'auto' },
          text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true }, verbosity: 'low' },
          tools: [{ type: 'function', name: 'a' }, { type: 'function', name: 'b' }],
          tool_choice: { type: 'function', name: 'a' },
          top_p: 0.5,
          user: 'u',
          include: ['reasoning.encrypted_content'],
        }),
      );
      expect(request.reasoning).to.deep.equal({ enabled: true, effort: 'high', includeThoughts: true });
      expect(request.responseFormat).to.deep.equal({ type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true });
      expect(request.toolChoice).to.deep.equal({ name: 'a' });
      expect(request).to.include({ topP: 0.5, user: 'u' });
      expect(request.extensions?.responses).to.deep.equal({
        include: ['reasoning.encrypted_content'],
        reasoning: { effort: 'high', summary: 'auto' },
        text: { verbosity: 'low' },
      });
      const allowed = decodeResponsesRequest(
        body({ tools: [{ type: 'function', name: 'a' }, { type: 'function', name: 'b' }], tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'b' }] } }),
      );
      expect(allowed.tools?.map((t) => t.name)).to.deep.equal(['b']);
      expect(allowed.toolChoice).to.equal('required');
      expect(decodeResponsesRequest(body({ reasoning: { effort: 'none' } })).reasoning).to.deep.equal({ enabled: false });
    });

    it('keeps previous_response_id in extensions (the responses encoder sends it back; others refuse it)', () => {
      expect(decodeResponsesRequest(body({ previous_response_id: 'resp_1' })).extensions?.responses).to.deep.equal({ previous_response_id: 'resp_1' });
    });
  });

  describe('invalid bodies answer GW_INVALID_REQUEST naming the field', () => {
    const cases: Array<[string, unknown, string]> = [
      ['no model', { input: 'x' }, 'model'],
      ['no input', { model: 'm' }, 'input'],
      ['empty input array', { model: 'm', input: [] }, 'input'],
      ['empty input string', { model: 'm', input: '' }, 'input'],
      ['item_reference', body({ input: [{ type: 'item_reference', id: 'msg_1' }] }), 'input[0].type'],
      ['unknown item type', body({ input: [{ type: 'mystery' }] }), 'input[0].type'],
      ['message without role', body({ input: [{ type: 'message', content: 'x' }] }), 'input[0].role'],
      ['easy message without content', body({ input: [{ role: 'user' }] }), 'input[0].content'],
      ['unknown role', body({ input: [{ role: 'robot', content: 'x' }] }), 'input[0].role'],
      ['unknown content part', body({ input: [{ role: 'user', content: [{ type: 'input_video' }] }] }), 'input[0].content[0].type'],
      ['function_call without call_id', body({ input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }), 'input[0].call_id'],
      ['function_call_output without output', body({ input: [{ type: 'function_call_output', call_id: 'c' }] }), 'input[0].output'],
      ['image by file id', body({ input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] }), 'input[0].content[0].file_id'],
      ['image in an assistant message', body({ input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: 'https://x/y.png' }] }] }), 'input[0].content[0].type'],
      ['function tool without name', body({ tools: [{ type: 'function' }] }), 'tools[0].name'],
      ['tool without type', body({ tools: [{ name: 'f' }] }), 'tools[0].type'],
      ['namespace function without name', body({ tools: [{ type: 'namespace', name: 'ns', tools: [{ type: 'function' }] }] }), 'tools[0].tools[0].name'],
      ['namespace member without type', body({ tools: [{ type: 'namespace', name: 'ns', tools: [{ name: 'f' }] }] }), 'tools[0].tools[0].type'],
      ['bad reasoning effort', body({ reasoning: { effort: 'max' } }), 'reasoning.effort'],
      ['json_schema without schema', body({ text: { format: { type: 'json_schema', name: 'x' } } }), 'text.format.schema'],
      ['bad max_output_tokens', body({ max_output_tokens: 0 }), 'max_output_tokens'],
      ['image data URI without a payload', body({ input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64' }] }] }), 'input[0].content[0].image_url'],
      ['file data URI that is not base64', body({ input: [{ role: 'user', content: [{ type: 'input_file', file_data: 'data:application/pdf,%25PDF' }] }] }), 'input[0].content[0].file_data'],
    ];
    for (const [name, input, param] of cases) {
      it(name, () => {
        const error = decodeError(input);
        expect(error.code).to.equal('GW_INVALID_REQUEST');
        expect(error.param).to.equal(param);
        expect(error.message.startsWith(`${param}:`)).to.equal(true, error.message);
      });
    }

    it('explains why item_reference cannot work', () => {
      expect(decodeError(body({ input: [{ type: 'item_reference', id: 'msg_1' }] })).message).to.match(/stateless/);
    });
  });
});
