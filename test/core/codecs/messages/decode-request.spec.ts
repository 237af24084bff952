import { expect } from 'chai';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import { decodeMessagesRequest } from '../../../../core/codecs/messages/decode-request';
import { readMessagesFixture } from './messages-fixtures';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';

/** A request shaped like Claude Code's (`/v1/messages?beta=true`). */
function claudeCodeRequest(): Record<string, unknown> {
  return {
    model: 'claude-sonnet-4-6',
    max_tokens: 32000,
    system: [
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
      { type: 'text', text: 'Project instructions.', cache_control: { type: 'ephemeral' } },
    ],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'List the files.', cache_control: { type: 'ephemeral' } }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should run ls.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'opaque-1' },
          { type: 'text', text: 'Running ls.' },
          { type: 'tool_use', id: 'toolu_01A', name: 'Bash', input: { command: 'ls' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A', content: [{ type: 'text', text: 'a.txt\nb.txt' }], cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'Now read a.txt' },
        ],
      },
      { role: 'system', content: '<system-reminder>Todo list is empty.</system-reminder>' },
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'x' } },
          { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [] },
          { type: 'tool_use', id: 'toolu_01B', name: 'Read', input: { file_path: '/a.txt' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01B', content: 'boom', is_error: true }] },
    ],
    tools: [
      {
        name: 'Bash',
        description: 'Run a command',
        input_schema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          additionalProperties: false,
          properties: {
            command: { type: 'string' },
            timeout: { type: 'number', exclusiveMinimum: 0 },
            mode: { const: 'default' },
            env: { type: 'object', propertyNames: { pattern: '^[A-Z_]+$' } },
          },
          required: ['command'],
        },
      },
      { name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } }, cache_control: { type: 'ephemeral' } },
      { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
    ],
    tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    thinking: { type: 'adaptive' },
    output_config: { effort: 'high' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    metadata: { user_id: 'user_abc_account__session_123' },
    stop_sequences: ['</done>'],
    temperature: 1,
    top_k: 40,
    stream: true,
  };
}

describe('decodeMessagesRequest', () => {
  it('decodes request-basic.json: string system, string content, temperature', () => {
    const req = decodeMessagesRequest(readMessagesFixture('request-basic.json'));
    expect(req).to.deep.equal({
      model: 'claude-sonnet-4-6',
      system: ['You are a concise assistant.'],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello in one short sentence.' }] }],
      maxTokens: 1024,
      temperature: 0.2,
      stream: false,
    });
  });

  it('decodes request-thinking.json into an enabled budget', () => {
    const req = decodeMessagesRequest(readMessagesFixture('request-thinking.json'));
    expect(req.reasoning).to.deep.equal({ enabled: true, budgetTokens: 10000, includeThoughts: true });
    expect(req.maxTokens).to.equal(16000);
  });

  it('decodes request-thinking-adaptive.json: adaptive thinking with output_config.effort', () => {
    const req = decodeMessagesRequest(readMessagesFixture('request-thinking-adaptive.json'));
    expect(req.reasoning).to.deep.equal({ enabled: true, effort: 'medium', includeThoughts: true });
  });

  it('decodes request-tools.json: tool schema untouched, tool_choice auto', () => {
    const wire = readMessagesFixture('request-tools.json') as { tools: Array<{ input_schema: unknown }> };
    const req = decodeMessagesRequest(wire);
    expect(req.tools).to.deep.equal([
      { name: 'get_weather', description: 'Get the current weather for a city.', parameters: wire.tools[0].input_schema },
    ]);
    expect(req.toolChoice).to.equal('auto');
    expect(req.parallelToolCalls).to.equal(undefined);
  });

  it('decodes request-tool-result.json: tool_use → tool_call with JSON text, tool_result split into a tool message', () => {
    const req = decodeMessagesRequest(readMessagesFixture('request-tool-result.json'));
    expect(req.messages).to.deep.equal([
      { role: 'user', content: [{ type: 'text', text: "What's the weather in Paris, in celsius?" }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: "I'll check the current weather in Paris for you." },
          { type: 'tool_call', id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool_result', toolCallId: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', content: [{ type: 'text', text: '{"temp_c":18,"condition":"cloudy"}' }] }],
      },
    ]);
  });

  it('decodes request-vision.json: base64 image block → image part', () => {
    const req = decodeMessagesRequest(readMessagesFixture('request-vision.json'));
    expect(req.messages[0].content[0]).to.deep.equal({ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG }, clientPath: 'messages[0].content[0]' });
    expect(req.maxTokens).to.equal(64);
  });

  describe('a Claude Code request', () => {
    const req = decodeMessagesRequest(claudeCodeRequest());

    it('keeps system blocks as system strings', () => {
      expect(req.system).to.deep.equal(["You are Claude Code, Anthropic's official CLI for Claude.", 'Project instructions.']);
    });

    it('keeps a mid-conversation role:system message in place as a system message', () => {
      expect(req.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'tool', 'user', 'system', 'assistant', 'tool']);
      expect(req.messages[4]).to.deep.equal({ role: 'system', content: [{ type: 'text', text: '<system-reminder>Todo list is empty.</system-reminder>' }] });
    });

    it('decodes thinking and redacted_thinking as messages-provider reasoning parts', () => {
      expect(req.messages[1].content.slice(0, 2)).to.deep.equal([
        { type: 'reasoning', text: 'I should run ls.', signature: 'sig-1', provider: 'messages' },
        { type: 'reasoning', text: '', redactedData: 'opaque-1', provider: 'messages' },
      ]);
    });

    it('splits tool results out of the user turn in order, keeping is_error and cache_control', () => {
      expect(req.messages[2]).to.deep.equal({
        role: 'tool',
        content: [{ type: 'tool_result', toolCallId: 'toolu_01A', content: [{ type: 'text', text: 'a.txt\nb.txt' }], cacheControl: { type: 'ephemeral' } }],
      });
      expect(req.messages[3]).to.deep.equal({ role: 'user', content: [{ type: 'text', text: 'Now read a.txt' }] });
      expect(req.messages[6].content[0]).to.deep.include({ toolCallId: 'toolu_01B', isError: true });
    });

    it('keeps cache_control on content blocks', () => {
      expect(req.messages[0].content[0]).to.deep.equal({ type: 'text', text: 'List the files.', cacheControl: { type: 'ephemeral' } });
    });

    it('drops server-tool records from assistant history but keeps the client tool call', () => {
      expect(req.messages[5].content).to.deep.equal([{ type: 'tool_call', id: 'toolu_01B', name: 'Read', arguments: '{"file_path":"/a.txt"}' }]);
    });

    it('keeps tool schemas verbatim ($schema, additionalProperties, propertyNames, const, exclusiveMinimum)', () => {
      const wire = claudeCodeRequest() as { tools: Array<{ input_schema: unknown }> };
      expect(req.tools?.map((t) => t.name)).to.deep.equal(['Bash', 'Read']);
      expect(req.tools?.[0].parameters).to.deep.equal(wire.tools[0].input_schema);
    });

    it('maps the web_search server tool to the built-in web_search, with its max_uses', () => {
      expect(req.builtinTools).to.deep.equal([{ type: 'web_search', maxUses: 5 }]);
    });

    it('maps tool_choice, thinking, effort, stop sequences, top_k, user and stream', () => {
      expect(req.toolChoice).to.equal('auto');
      expect(req.parallelToolCalls).to.equal(false);
      expect(req.reasoning).to.deep.equal({ enabled: true, effort: 'high', includeThoughts: true });
      expect(req.stop).to.deep.equal(['</done>']);
      expect(req.topK).to.equal(40);
      expect(req.temperature).to.equal(1);
      expect(req.user).to.equal('user_abc_account__session_123');
      expect(req.stream).to.equal(true);
    });

    it('keeps fields with no unified meaning in extensions.messages', () => {
      const ext = req.extensions?.messages ?? {};
      expect(ext.context_management).to.deep.equal({ edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] });
      expect(ext.output_config).to.deep.equal({ effort: 'high' });
      expect(ext.thinking).to.deep.equal({ type: 'adaptive' });
      expect(ext.metadata).to.deep.equal({ user_id: 'user_abc_account__session_123' });
      expect(ext.tools).to.have.length(2);
    });
  });

  it('puts leading role:system messages into the top-level system', () => {
    const req = decodeMessagesRequest({
      model: 'm',
      system: 'top',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'lead' }] },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(req.system).to.deep.equal(['top', 'lead']);
    expect(req.messages).to.deep.equal([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('decodes documents (base64 PDF, URL, plain text) into file parts and image URLs into url sources', () => {
    const req = decodeMessagesRequest({
      model: 'm',
      max_tokens: 10,
      messages: [{
        role: 'user',
        content: [
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'a.pdf' },
          { type: 'document', source: { type: 'url', url: 'https://example.com/b.pdf' } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'héllo' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/c.png' } },
        ],
      }],
    });
    expect(req.messages[0].content).to.deep.equal([
      { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'a.pdf' , clientPath: 'messages[0].content[0]' },
      { type: 'file', source: { kind: 'url', url: 'https://example.com/b.pdf' }, clientPath: 'messages[0].content[1]' },
      { type: 'file', source: { kind: 'base64', mediaType: 'text/plain', data: Buffer.from('héllo').toString('base64') }, clientPath: 'messages[0].content[2]' },
      { type: 'image', source: { kind: 'url', url: 'https://example.com/c.png' }, clientPath: 'messages[0].content[3]' },
    ]);
  });

  it('decodes a content document of text and images: its text as a file, its images as image parts after it', () => {
    const req = decodeMessagesRequest({
      model: 'm',
      max_tokens: 10,
      messages: [{
        role: 'user',
        content: [{
          type: 'document',
          title: 'Deck',
          source: { type: 'content', content: [{ type: 'text', text: 'page 1' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }, { type: 'text', text: 'page 2' }] },
        }],
      }],
    });
    expect(req.messages[0].content).to.deep.equal([
      { type: 'file', source: { kind: 'base64', mediaType: 'text/plain', data: Buffer.from('page 1\npage 2').toString('base64') }, filename: 'Deck' , clientPath: 'messages[0].content[0]' },
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' }, clientPath: 'messages[0].content[0].source.content[1]' },
    ]);
  });

  it('decodes tool_result content blocks including images', () => {
    const req = decodeMessagesRequest({
      model: 'm',
      messages: [{
        role: 'user',
        content: [{
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [{ type: 'text', text: 'shot' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }],
        }],
      }],
    });
    expect(req.messages[0]).to.deep.equal({
      role: 'tool',
      content: [{
        type: 'tool_result',
        toolCallId: 'toolu_1',
        content: [{ type: 'text', text: 'shot' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG }, clientPath: 'messages[0].content[0].content[1]' }],
      }],
    });
  });

  it('maps every tool_choice type', () => {
    const choice = (tool_choice: unknown) =>
      decodeMessagesRequest({ model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [{ name: 't', input_schema: { type: 'object' } }], tool_choice });
    expect(choice({ type: 'auto' }).toolChoice).to.equal('auto');
    expect(choice({ type: 'any' }).toolChoice).to.equal('required');
    expect(choice({ type: 'none' }).toolChoice).to.equal('none');
    expect(choice({ type: 'tool', name: 't' }).toolChoice).to.deep.equal({ name: 't' });
  });

  it('maps thinking disabled and a JSON-schema output format', () => {
    const req = decodeMessagesRequest({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      thinking: { type: 'disabled' },
      output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
    });
    expect(req.reasoning).to.deep.equal({ enabled: false });
    expect(req.responseFormat).to.deep.equal({ type: 'json_schema', schema: { type: 'object' } });
  });

  describe('bad input', () => {
    const ok = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    const cases: Array<[string, unknown, string]> = [
      ['body not an object', 'hello', 'body'],
      ['no model', { messages: ok.messages }, 'model'],
      ['model not a string', { ...ok, model: 5 }, 'model'],
      ['no messages', { model: 'm' }, 'messages'],
      ['empty messages', { ...ok, messages: [] }, 'messages'],
      ['messages not an array', { ...ok, messages: {} }, 'messages'],
      ['unknown role', { ...ok, messages: [{ role: 'bot', content: 'x' }] }, 'messages[0].role'],
      ['user turn without content', { ...ok, messages: [{ role: 'user' }] }, 'messages[0].content'],
      ['content a number', { ...ok, messages: [{ role: 'user', content: 5 }] }, 'messages[0].content'],
      ['block without type', { ...ok, messages: [{ role: 'user', content: [{ text: 'x' }] }] }, 'messages[0].content[0].type'],
      ['text block without text', { ...ok, messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'messages[0].content[0].text'],
      ['tool_result without tool_use_id', { ...ok, messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }, 'messages[0].content[0].tool_use_id'],
      ['tool_use input not an object', { ...ok, messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'b', input: 'x' }] }] }, 'messages[0].content[0].input'],
      ['image without source', { ...ok, messages: [{ role: 'user', content: [{ type: 'image' }] }] }, 'messages[0].content[0].source'],
      ['image source of unknown type', { ...ok, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'ftp' } }] }] }, 'messages[0].content[0].source.type'],
      ['base64 image without data', { ...ok, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png' } }] }] }, 'messages[0].content[0].source.data'],
      ['unknown block in a user turn', { ...ok, messages: [{ role: 'user', content: [{ type: 'hologram' }] }] }, 'messages[0].content[0].type'],
      ['tool_use in a user turn', { ...ok, messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'b', input: {} }] }] }, 'messages[0].content[0].type'],
      ['tool_result in an assistant turn', { ...ok, messages: [{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'a' }] }] }, 'messages[0].content[0].type'],
      ['max_tokens a string', { ...ok, max_tokens: '10' }, 'max_tokens'],
      ['max_tokens zero', { ...ok, max_tokens: 0 }, 'max_tokens'],
      ['temperature a string', { ...ok, temperature: 'hot' }, 'temperature'],
      ['stop_sequences a string', { ...ok, stop_sequences: 'x' }, 'stop_sequences'],
      ['system a number', { ...ok, system: 1 }, 'system'],
      ['tools not an array', { ...ok, tools: {} }, 'tools'],
      ['custom tool without input_schema', { ...ok, tools: [{ name: 't' }] }, 'tools[0].input_schema'],
      ['tool without name', { ...ok, tools: [{ input_schema: { type: 'object' } }] }, 'tools[0].name'],
      ['unknown tool_choice type', { ...ok, tool_choice: { type: 'sometimes' } }, 'tool_choice.type'],
      ['tool_choice tool without name', { ...ok, tool_choice: { type: 'tool' } }, 'tool_choice.name'],
      ['tool_choice naming a tool not declared', { ...ok, tools: [{ name: 't', input_schema: { type: 'object' } }], tool_choice: { type: 'tool', name: 'nope' } }, 'tool_choice.name'],
      ['tool_choice naming a tool with no tools', { ...ok, tool_choice: { type: 'tool', name: 't' } }, 'tool_choice.name'],
      ['thinking enabled without budget', { ...ok, thinking: { type: 'enabled' } }, 'thinking.budget_tokens'],
      ['unknown thinking type', { ...ok, thinking: { type: 'maybe' } }, 'thinking.type'],
      ['stream not a boolean', { ...ok, stream: 'yes' }, 'stream'],
      ['document with a Files API source', { ...ok, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: 'f' } }] }] }, 'messages[0].content[0].source'],
    ];
    for (const [name, body, field] of cases) {
      it(`rejects ${name} naming ${field}`, () => {
        let caught: unknown;
        try {
          decodeMessagesRequest(body);
        } catch (e) {
          caught = e;
        }
        expect(isGatewayError(caught), 'a GatewayError').to.equal(true);
        if (!isGatewayError(caught)) return;
        expect(caught.code).to.equal('GW_INVALID_REQUEST');
        expect(caught.status).to.equal(400);
        expect(caught.message.startsWith(`${field}:`), caught.message).to.equal(true);
      });
    }
  });
});
