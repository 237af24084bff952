import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { decodeRequest } from '../../../../core/codecs/gemini/decode-request';
import { encodeRequest } from '../../../../core/codecs/gemini/encode-request';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import type { UnifiedMessage, UnifiedRequest } from '../../../../core/unified/unified-request';
import { FIXTURES_DIR } from '../../../helpers/fixtures';

const FIXTURES = FIXTURES_DIR + '/gemini';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${FIXTURES}/${name}`, 'utf8')) as Record<string, unknown>;
}

function request(overrides: Partial<UnifiedRequest>): UnifiedRequest {
  return { model: 'gemini-2.5-flash', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, ...overrides };
}

function body(overrides: Partial<UnifiedRequest>): Record<string, unknown> {
  return encodeRequest(request(overrides)).value;
}

/** A request fixture in the camelCase form the encoder emits (the snake_case one has a camelCase twin). */
function camelFixture(name: string): Record<string, unknown> {
  return fixture(name === 'request-multimodal.json' ? 'request-multimodal-camel.json' : name);
}

describe('gemini encodeRequest', () => {
  describe('same-format round trip of every request fixture', () => {
    const names = [
      'request-basic.json',
      'request-code-execution.json',
      'request-function-calling.json',
      'request-function-response.json',
      'request-image-generation.json',
      'request-multimodal.json',
      'request-multimodal-camel.json',
      'request-thinking.json',
      'request-thinking-budget.json',
      'safety-settings-off.json',
    ];
    for (const name of names) {
      it(`decode → encode gives back ${name} (camelCase)`, () => {
        // A Gemini 3 model: thinkingLevel passes as-is, and the replayed call keeps its own signature.
        const unified = decodeRequest(fixture(name), { model: 'gemini-3-flash-preview' });
        const expected = camelFixture(name);
        if (name === 'request-code-execution.json') expected.tools = [{ codeExecution: {} }];
        expect(encodeRequest(unified).value).to.deep.equal(expected);
      });
    }

    it('sends a Gemini CLI request back with parametersJsonSchema, responseJsonSchema and the echoed ids', () => {
      const cli = {
        contents: [
          { role: 'user', parts: [{ text: 'read a.txt' }] },
          { role: 'model', parts: [{ functionCall: { id: 'read-1', name: 'read_file', args: { path: 'a.txt' } }, thoughtSignature: 'sig' }] },
          { role: 'user', parts: [{ functionResponse: { id: 'read-1', name: 'read_file', response: { output: 'hello' } } }] },
        ],
        systemInstruction: { parts: [{ text: 'You are a CLI.' }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: 'read_file',
                description: 'Reads',
                parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
              },
            ],
          },
        ],
        generationConfig: {
          temperature: 0,
          topP: 1,
          topK: 64,
          thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 },
          responseMimeType: 'application/json',
          responseJsonSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        },
      };
      const out = encodeRequest(decodeRequest(cli, { model: 'gemini-3-pro-preview' })).value;
      expect(out).to.deep.equal({
        ...cli,
        contents: [
          cli.contents[0],
          cli.contents[1],
          // `{output}` is unwrapped on decode and re-wrapped in the gateway's `{result}` convention.
          { role: 'user', parts: [{ functionResponse: { id: 'read-1', name: 'read_file', response: { result: 'hello' } } }] },
        ],
      });
    });
  });

  describe('contents', () => {
    it('maps roles, merges consecutive same-role turns and puts tool results in one user turn', () => {
      const messages: UnifiedMessage[] = [
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'user', content: [{ type: 'text', text: 'b' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'calling' },
            { type: 'tool_call', id: 'call_abc', name: 'f', arguments: '{"x":1}' },
            { type: 'tool_call', id: 'toolu_01Xy', name: 'g', arguments: '' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_abc', content: [{ type: 'text', text: 'plain' }] }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'toolu_01Xy', content: [{ type: 'text', text: '{"n":2}' }] }] },
        { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
      ];
      expect(body({ messages }).contents).to.deep.equal([
        { role: 'user', parts: [{ text: 'a' }, { text: 'b' }] },
        {
          role: 'model',
          parts: [{ text: 'calling' }, { functionCall: { id: 'call_abc', name: 'f', args: { x: 1 } } }, { functionCall: { id: 'toolu_01Xy', name: 'g', args: {} } }],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'call_abc', name: 'f', response: { result: 'plain' } } },
            { functionResponse: { id: 'toolu_01Xy', name: 'g', response: { n: 2 } } },
            { text: 'thanks' },
          ],
        },
      ]);
    });

    it('sends tool-call arguments that are not a JSON object (a call cut short earlier) as {}, with a warning', () => {
      for (const text of ['{oops', '[1]']) {
        const { value, warnings } = encodeRequest(request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }, { role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: text }] }] }));
        const parts = (value.contents as Array<{ parts: Array<{ functionCall?: unknown }> }>)[1].parts;
        expect(parts[0].functionCall).to.deep.equal({ id: 'c', name: 'f', args: {} });
        expect(warnings).to.include('messages[1].content[0].arguments: not a JSON object, sent as {}');
      }
    });

    it('does not echo synthesized ids and names each result after the latest call with its id', () => {
      const turn = (name: string): UnifiedMessage[] => [
        { role: 'assistant', content: [{ type: 'tool_call', id: 'call_0', name, arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_0', content: [{ type: 'text', text: 'r' }], isError: name === 'b' }] },
      ];
      const contents = body({ messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }, ...turn('a'), ...turn('b')] }).contents;
      expect(contents).to.deep.equal([
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [{ functionCall: { name: 'a', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'a', response: { result: 'r' } } }] },
        { role: 'model', parts: [{ functionCall: { name: 'b', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'b', response: { error: 'r' } } }] },
      ]);
    });

    it('answers calls in the order they were made when the client sends the results in another (order pairs them without ids)', () => {
      const contents = body({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'weather in Paris and Tokyo?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool_call', id: 'call_0c53fdac_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
              { type: 'tool_call', id: 'call_0c53fdac_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
            ],
          },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_0c53fdac_1', content: [{ type: 'text', text: 'Tokyo: 30C' }] }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_0c53fdac_0', content: [{ type: 'text', text: 'Paris: 10C' }] }] },
          { role: 'user', content: [{ type: 'text', text: 'and?' }] },
        ],
      }).contents as Array<{ role: string; parts: Array<Record<string, any>> }>;
      expect(contents[2].parts.map((part) => part.functionResponse?.response ?? part.text)).to.deep.equal([{ result: 'Paris: 10C' }, { result: 'Tokyo: 30C' }, 'and?']);
    });

    it('refuses two calls of one turn with one id, whose results could not be told apart', () => {
      let thrown: unknown;
      try {
        body({
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'q' }] },
            { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' }, { type: 'tool_call', id: 'c1', name: 'g', arguments: '{}' }] },
            { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'A' }] }] },
          ],
        });
      } catch (error) {
        thrown = error;
      }
      expect(isGatewayError(thrown) && [thrown.status, thrown.message]).to.deep.equal([400, 'two tool calls of one assistant turn have the id "c1": each call needs an id of its own']);
    });

    it('does not echo synthesized ids in the toolu_ shape a Messages client sends them back in', () => {
      const contents = body({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [{ type: 'tool_call', id: 'toolu_0c044bcc_0', name: 'f', arguments: '{}' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'toolu_0c044bcc_0', content: [{ type: 'text', text: 'r' }] }] },
          { role: 'assistant', content: [{ type: 'tool_call', id: 'toolu_real7', name: 'f', arguments: '{}' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'toolu_real7', content: [{ type: 'text', text: 'r' }] }] },
        ],
      }).contents;
      expect(contents).to.deep.equal([
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { result: 'r' } } }] },
        { role: 'model', parts: [{ functionCall: { id: 'toolu_real7', name: 'f', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'toolu_real7', name: 'f', response: { result: 'r' } } }] },
      ]);
    });

    it('puts a mid-conversation system message into the adjacent user turn, never drops it', () => {
      const contents = body({
        system: ['top'],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q1' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'a1' }] },
          { role: 'system', content: [{ type: 'text', text: 'Be terse from now on.' }] },
          { role: 'user', content: [{ type: 'text', text: 'q2' }] },
        ],
      }).contents;
      expect(contents).to.deep.equal([
        { role: 'user', parts: [{ text: 'q1' }] },
        { role: 'model', parts: [{ text: 'a1' }] },
        { role: 'user', parts: [{ text: 'Be terse from now on.' }, { text: 'q2' }] },
      ]);
    });

    it('encodes media: base64 → inlineData, URL → fileData with the MIME type of its extension (none for YouTube), data URI → inlineData', () => {
      const contents = body({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG } },
              { type: 'file', source: { kind: 'url', url: 'https://example.com/doc.pdf?sig=1' } },
              { type: 'video', source: { kind: 'url', url: 'https://example.com/clip' } },
              { type: 'audio', source: { kind: 'url', url: 'data:audio/wav;base64,UklGRg==' } },
              { type: 'video', source: { kind: 'url', url: 'https://youtu.be/9hE5-98ZeCg' } },
            ],
          },
        ],
      }).contents;
      expect(contents).to.deep.equal([
        {
          role: 'user',
          parts: [
            { inlineData: { mimeType: 'image/png', data: PNG } },
            { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/doc.pdf?sig=1' } },
            { fileData: { mimeType: 'video/mp4', fileUri: 'https://example.com/clip' } },
            { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
            { fileData: { fileUri: 'https://youtu.be/9hE5-98ZeCg' } },
          ],
        },
      ]);
    });

    it('sends media returned by a tool after the function responses of that turn', () => {
      const contents = body({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'shoot' }] },
          { role: 'assistant', content: [{ type: 'tool_call', id: 'toolu_01Aa', name: 'screenshot', arguments: '{}' }] },
          {
            role: 'tool',
            content: [
              {
                type: 'tool_result',
                toolCallId: 'toolu_01Aa',
                content: [
                  { type: 'text', text: 'here' },
                  { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG } },
                ],
              },
            ],
          },
        ],
      }).contents as Array<{ parts: unknown[] }>;
      expect(contents[2].parts).to.deep.equal([
        { functionResponse: { id: 'toolu_01Aa', name: 'screenshot', response: { result: 'here' } } },
        { inlineData: { mimeType: 'image/png', data: PNG } },
      ]);
    });

    it('replays Gemini reasoning: thoughts as thought parts, signatures on the part after them; drops other providers', () => {
      const contents = body({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'claude thinking', signature: 'anthropic-sig', provider: 'messages' },
              { type: 'reasoning', text: 'gemini thought', provider: 'gemini' },
              { type: 'reasoning', text: '', signature: 'sig-1', provider: 'gemini' },
              { type: 'text', text: 'answer' },
              { type: 'reasoning', text: '', signature: 'sig-2', provider: 'gemini' },
            ],
          },
        ],
      }).contents;
      expect(contents).to.deep.equal([
        { role: 'user', parts: [{ text: 'q' }] },
        {
          role: 'model',
          parts: [{ text: 'gemini thought', thought: true }, { text: 'answer', thoughtSignature: 'sig-1' }, { text: '', thoughtSignature: 'sig-2' }],
        },
      ]);
    });

    it('on Gemini 3 gives the first functionCall of a model turn without a signature the documented dummy', () => {
      const messages: UnifiedMessage[] = [
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_call', id: 'toolu_01Aa', name: 'f', arguments: '{}' },
            { type: 'tool_call', id: 'toolu_01Bb', name: 'f', arguments: '{}' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: 'toolu_01Aa', content: [{ type: 'text', text: '1' }] },
            { type: 'tool_result', toolCallId: 'toolu_01Bb', content: [{ type: 'text', text: '2' }] },
          ],
        },
      ];
      const gemini3 = body({ model: 'gemini-3-pro-preview', messages }).contents as Array<{ parts: Array<Record<string, unknown>> }>;
      expect(gemini3[1].parts[0].thoughtSignature).to.equal('skip_thought_signature_validator');
      expect(gemini3[1].parts[1].thoughtSignature).to.equal(undefined);
      const gemini25 = body({ model: 'gemini-2.5-flash', messages }).contents as Array<{ parts: Array<Record<string, unknown>> }>;
      expect(gemini25[1].parts[0].thoughtSignature).to.equal(undefined);
    });

    it('keeps a real signature instead of the dummy', () => {
      const contents = body({
        model: 'gemini-3-flash-preview',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          { role: 'assistant', content: [{ type: 'tool_call', id: 'call_0', name: 'f', arguments: '{}', signature: 'real' }] },
        ],
      }).contents as Array<{ parts: Array<Record<string, unknown>> }>;
      expect(contents[1].parts[0]).to.deep.equal({ functionCall: { name: 'f', args: {} }, thoughtSignature: 'real' });
    });

    it('opens a history that starts with a function call (a trimmed chat history) with a user turn; Gemini refuses it otherwise', () => {
      const trimmed: UnifiedMessage[] = [
        { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'ls', arguments: '{"p":"."}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: 'a b c' }] }] },
        { role: 'user', content: [{ type: 'text', text: 'and now?' }] },
      ];
      const contents = body({ system: ['sys'], messages: trimmed }).contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
      expect(contents.map((content) => content.role)).to.deep.equal(['user', 'model', 'user']);
      expect(contents[0].parts).to.deep.equal([{ text: '(conversation continues)' }]);
      expect(contents[1].parts[0]).to.have.property('functionCall');
      // Gemma's system text already makes that user turn.
      expect((body({ model: 'gemma-3-27b-it', system: ['sys'], messages: trimmed }).contents as Array<{ parts: unknown[] }>)[0].parts).to.deep.equal([{ text: 'sys\n\n' }]);
    });

    it('drops empty text and turns left empty', () => {
      const contents = body({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          { role: 'assistant', content: [{ type: 'reasoning', text: 'hidden', provider: 'responses' }, { type: 'text', text: '' }] },
          { role: 'user', content: [{ type: 'text', text: 'again' }] },
        ],
      }).contents;
      expect(contents).to.deep.equal([{ role: 'user', parts: [{ text: 'q' }, { text: 'again' }] }]);
    });
  });

  describe('tools', () => {
    it('prunes Claude Code style schemas to the Gemini subset', () => {
      const parameters = {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        additionalProperties: false,
        properties: {
          command: { type: 'string', description: 'The command' },
          timeout: { type: 'number', exclusiveMinimum: 0, maximum: 600000 },
          mode: { const: 'fast' },
          optional: { type: ['string', 'null'], format: 'uri' },
        },
        required: ['command', 'missing'],
      };
      expect(body({ tools: [{ name: 'Bash', description: 'Run', parameters }] }).tools).to.deep.equal([
        {
          functionDeclarations: [
            {
              name: 'Bash',
              description: 'Run',
              parameters: {
                type: 'object',
                properties: {
                  command: { type: 'string', description: 'The command' },
                  timeout: { type: 'number', maximum: 600000 },
                  mode: { type: 'string', enum: ['fast'] },
                  optional: { type: 'string', nullable: true },
                },
                required: ['command'],
              },
            },
          ],
        },
      ]);
    });

    it('sends a schema the subset cannot hold (a map, a free-form object, a recursive $ref) as parametersJsonSchema', () => {
      // Pruned, each would be an OBJECT without properties, which Gemini refuses with a 400 ("should be non-empty").
      const map = { type: 'object', properties: { url: { type: 'string' }, headers: { type: 'object', additionalProperties: { type: 'string' } } } };
      const freeForm = { type: 'object', properties: { input: { type: 'object', description: 'anything' } }, required: ['input'] };
      const recursive = {
        type: 'object',
        properties: { tree: { $ref: '#/$defs/node' } },
        $defs: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
      };
      const rootMap = { type: 'object', additionalProperties: { type: 'number' } };
      const inUnion = { type: 'object', properties: { value: { type: ['object', 'string'] } } };
      const declared = body({
        tools: [
          { name: 'fetch', parameters: map },
          { name: 'run', parameters: freeForm },
          { name: 'walk', parameters: recursive },
          { name: 'set_env', parameters: rootMap },
          { name: 'put', parameters: inUnion },
          { name: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false } },
        ],
      }).tools;
      expect(declared).to.deep.equal([
        {
          functionDeclarations: [
            { name: 'fetch', parametersJsonSchema: map },
            { name: 'run', parametersJsonSchema: freeForm },
            { name: 'walk', parametersJsonSchema: recursive },
            { name: 'set_env', parametersJsonSchema: rootMap },
            { name: 'put', parametersJsonSchema: inUnion },
            { name: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
          ],
        },
      ]);
    });

    it('sends a schema with a node of no type below its root as parametersJsonSchema (Gemini: "type: must be specified")', () => {
      const schemas: Array<Record<string, unknown>> = [
        { type: 'object', properties: { value: { title: 'Value' } }, required: ['value'] }, // pydantic Any
        { type: 'object', properties: { value: {} } }, // zod any
        { type: 'object', properties: { hops: { anyOf: [{ const: 1 }, { const: 2 }] } } }, // union of number literals
        { type: 'object', properties: { level: { enum: [1, 2, 3] } } },
        { type: 'object', properties: { list: { type: 'array' } } },
        { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, anyOf: [{ required: ['a'] }, { required: ['b'] }] },
        { type: 'object', properties: { deep: { type: 'array', items: { type: 'object', properties: { any: { description: 'anything' } } } } } },
      ];
      const declarations = (body({ tools: schemas.map((parameters, i) => ({ name: `f${i}`, parameters })) }).tools as Array<{ functionDeclarations: unknown[] }>)[0].functionDeclarations;
      expect(declarations).to.deep.equal(schemas.map((parameters, i) => ({ name: `f${i}`, parametersJsonSchema: parameters })));
      // Typed all the way down, a schema is still pruned into `parameters`.
      const typed = { type: 'object', properties: { hops: { anyOf: [{ type: 'integer' }, { type: 'string', enum: ['many'] }] }, list: { type: 'array', items: { type: 'string' } } } };
      expect(body({ tools: [{ name: 'typed', parameters: typed }] }).tools).to.deep.equal([{ functionDeclarations: [{ name: 'typed', parameters: typed }] }]);
    });

    it('gives a function name Gemini refuses a valid one everywhere: declaration, forced choice, earlier calls and results', () => {
      const out = body({
        tools: [
          { name: '21st_magic_component_builder', parameters: { type: 'object', properties: { message: { type: 'string' } } } },
          { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        ],
        toolChoice: { name: '21st_magic_component_builder' },
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'build' }] },
          { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: '21st_magic_component_builder', arguments: '{"message":"a"}' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: 'done' }] }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'x9', name: '21st_magic_component_builder', content: [{ type: 'text', text: 'done' }] }] },
        ],
      });
      expect((out.tools as Array<{ functionDeclarations: Array<{ name: string }> }>)[0].functionDeclarations.map((d) => d.name)).to.deep.equal(['_21st_magic_component_builder', 'get_weather']);
      expect(out.toolConfig).to.deep.equal({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['_21st_magic_component_builder'] } });
      const contents = out.contents as Array<{ parts: Array<{ functionCall?: { name: string }; functionResponse?: { name: string } }> }>;
      expect(contents[1].parts[0].functionCall?.name).to.equal('_21st_magic_component_builder');
      expect(contents[2].parts.map((part) => part.functionResponse?.name)).to.deep.equal(['_21st_magic_component_builder', '_21st_magic_component_builder']);
      expect(JSON.stringify(out)).not.to.match(/"21st/);
    });

    it('omits parameters of a function without arguments', () => {
      expect(
        body({
          tools: [
            { name: 'now', parameters: { type: 'object', properties: {} } },
            { name: 'ping', parameters: {} },
          ],
          toolChoice: { name: 'now' },
        }),
      ).to.deep.include({
        tools: [{ functionDeclarations: [{ name: 'now' }, { name: 'ping' }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['now'] } },
      });
    });

    it('sends builtin tools alone, and drops them with a warning beside functions (Gemini refuses the pair, as Codex sends it)', () => {
      const builtinTools: UnifiedRequest['builtinTools'] = [{ type: 'web_search' }, { type: 'code_execution' }];
      expect(body({ builtinTools }).tools).to.deep.equal([{ googleSearch: {} }, { codeExecution: {} }]);
      const { value, warnings } = encodeRequest(request({ tools: [{ name: 'shell', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }], builtinTools }));
      expect(value.tools).to.deep.equal([{ functionDeclarations: [{ name: 'shell', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }] }]);
      expect(warnings).to.deep.equal([
        'tools: web_search dropped, Gemini does not combine a built-in tool with function calling',
        'tools: code_execution dropped, Gemini does not combine a built-in tool with function calling',
      ]);
    });

    const choices: Array<[UnifiedRequest['toolChoice'], string]> = [
      ['auto', 'AUTO'],
      ['none', 'NONE'],
      ['required', 'ANY'],
    ];
    for (const [choice, mode] of choices) {
      it(`maps tool choice ${String(choice)} to ${mode}`, () => {
        const out = body({ tools: [{ name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } } } }], toolChoice: choice });
        expect(out.toolConfig).to.deep.equal({ functionCallingConfig: { mode } });
      });
    }
  });

  describe('generationConfig', () => {
    it('maps sampling, stop, seed, penalties, JSON schema output, modalities and aspect ratio', () => {
      const schema = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
      expect(
        body({
          maxTokens: 100,
          temperature: 0.3,
          topP: 0.8,
          topK: 20,
          stop: ['END'],
          seed: 3,
          presencePenalty: 0.5,
          frequencyPenalty: 0.25,
          responseFormat: { type: 'json_schema', name: 'x', schema },
          outputModalities: ['text', 'image'],
          imageAspectRatio: '16:9',
        }).generationConfig,
      ).to.deep.equal({
        maxOutputTokens: 100,
        temperature: 0.3,
        topP: 0.8,
        topK: 20,
        stopSequences: ['END'],
        seed: 3,
        presencePenalty: 0.5,
        frequencyPenalty: 0.25,
        responseMimeType: 'application/json',
        responseJsonSchema: schema,
        responseModalities: ['TEXT', 'IMAGE'],
        imageConfig: { aspectRatio: '16:9' },
      });
    });

    it('drops JSON output beside functions before Gemini 3, which refuses the pair; keeps both on Gemini 3', () => {
      const tools = [{ name: 'shell', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }];
      const schema = { type: 'object', properties: { a: { type: 'string' } } };
      for (const responseFormat of [{ type: 'json_schema', schema }, { type: 'json_object' }] as const) {
        const legacy = encodeRequest(request({ model: 'gemini-2.5-flash', tools, responseFormat, temperature: 0 }));
        expect(legacy.value.generationConfig).to.deep.equal({ temperature: 0 });
        expect(legacy.warnings).to.deep.equal(['responseFormat: gemini-2.5-flash cannot answer in JSON while tools are declared; dropped']);
        const current = encodeRequest(request({ model: 'gemini-3-flash-preview', tools, responseFormat }));
        expect(current.value.generationConfig).to.have.property('responseMimeType', 'application/json');
        expect(current.warnings).to.deep.equal([]);
      }
      expect(body({ model: 'gemini-2.5-flash', responseFormat: { type: 'json_object' } }).generationConfig).to.deep.equal({ responseMimeType: 'application/json' });
      // A built-in tool (search, code execution) is refused beside JSON output the same way.
      const searching = encodeRequest(request({ model: 'gemini-2.5-flash', builtinTools: [{ type: 'web_search' }], responseFormat: { type: 'json_object' } }));
      expect(searching.value).to.deep.include({ tools: [{ googleSearch: {} }] });
      expect(searching.value).to.not.have.property('generationConfig');
    });

    it('sends 5 stop sequences, as many as Gemini takes', () => {
      expect(body({ stop: ['a', 'b', 'c', 'd', 'e'] }).generationConfig).to.deep.equal({ stopSequences: ['a', 'b', 'c', 'd', 'e'] });
    });

    it('maps json_object to the MIME type only', () => {
      expect(body({ responseFormat: { type: 'json_object' } }).generationConfig).to.deep.equal({ responseMimeType: 'application/json' });
    });

    it('copies extensions.gemini back, merging generationConfig and tools', () => {
      const unified = decodeRequest(
        {
          contents: [{ parts: [{ text: 'x' }] }],
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' }],
          cachedContent: 'cachedContents/c1',
          tools: [{ urlContext: {} }, { googleSearch: {} }],
          generationConfig: { candidateCount: 1, maxOutputTokens: 5, imageConfig: { aspectRatio: '1:1', imageSize: '2K' } },
        },
        { model: 'gemini-2.5-flash' },
      );
      expect(encodeRequest(unified).value).to.deep.equal({
        contents: [{ role: 'user', parts: [{ text: 'x' }] }],
        tools: [{ googleSearch: {} }, { urlContext: {} }],
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' }],
        cachedContent: 'cachedContents/c1',
        generationConfig: { candidateCount: 1, maxOutputTokens: 5, imageConfig: { imageSize: '2K', aspectRatio: '1:1' } },
      });
    });
  });

  describe('what cannot be expressed → GW_INVALID_REQUEST naming the field', () => {
    const cases: Array<[string, Partial<UnifiedRequest>, string]> = [
      ['no messages with content', { messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }, 'messages'],
      ['more than 5 stop sequences (Gemini takes 5)', { stop: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'stop'],
    ];
    for (const [what, overrides, param] of cases) {
      it(`rejects ${what}`, () => {
        let caught: unknown;
        try {
          encodeRequest(request(overrides));
        } catch (error) {
          caught = error;
        }
        expect(isGatewayError(caught)).to.equal(true);
        if (!isGatewayError(caught)) return;
        expect(caught.code).to.equal('GW_INVALID_REQUEST');
        expect(caught.message.startsWith(`${param}:`), caught.message).to.equal(true);
      });
    }

    it('rejects a tool result whose function name is unknown, naming the call id and no field of the unified model', () => {
      let caught: unknown;
      try {
        encodeRequest(request({ messages: [{ role: 'tool', content: [{ type: 'tool_result', toolCallId: 'nope', content: [{ type: 'text', text: 'x' }] }] }] }));
      } catch (error) {
        caught = error;
      }
      expect(isGatewayError(caught) && caught.code).to.equal('GW_INVALID_REQUEST');
      expect((caught as Error).message).to.equal('a tool result answers call id "nope", which no earlier tool call of the conversation has: Gemini needs that call\'s function name');
      expect((caught as { param?: string }).param).to.equal(undefined);
    });

    it('uses the result part name when no call is known', () => {
      const contents = body({
        messages: [{ role: 'tool', content: [{ type: 'tool_result', toolCallId: 'x1', name: 'lookup', content: [{ type: 'text', text: '1' }] }] }],
      }).contents;
      expect(contents).to.deep.equal([{ role: 'user', parts: [{ functionResponse: { id: 'x1', name: 'lookup', response: { result: '1' } } }] }]);
    });
  });

  it('reports what it dropped as warnings and never puts the model in the body', () => {
    const { value, warnings } = encodeRequest(request({ parallelToolCalls: false, user: 'u1' }));
    expect(value).to.not.have.property('model');
    expect(warnings).to.have.length(2);
  });
});
