import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { geminiCodec } from '../../../../core/codecs/gemini';
import { decodeRequest } from '../../../../core/codecs/gemini/decode-request';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import type { UnifiedRequest } from '../../../../core/unified/unified-request';
import { FIXTURES_DIR } from '../../../helpers/fixtures';

const FIXTURES = FIXTURES_DIR + '/gemini';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==';
const SIGNATURE =
  'CpUCAdHtim9xq3VbR0kZt1mN8pWc4yLs6uEa2oDf7gHj5kKl9zXv3bQn1wEr6tYu8iOp0aSd2fGh4jKl6zXc8vBn0mQw2eRt4yUi6oPa8sDf0gHj2kLz4xCv6bNm8qWe0rTy2uIo4pAs6dFg8hJk0lZx2cVb4nM=';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}/${name}`, 'utf8'));
}

const CTX = { model: 'gemini-2.5-flash', stream: false };

function decode(body: unknown): UnifiedRequest {
  return decodeRequest(body, CTX);
}

function user(text: string): { role: 'user'; parts: Array<{ text: string }> } {
  return { role: 'user', parts: [{ text }] };
}

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name, e.g. Paris' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['city'],
  },
};

describe('gemini decodeRequest', () => {
  describe('golden: request fixtures', () => {
    const cases: Array<[string, Omit<UnifiedRequest, 'model' | 'stream'>]> = [
      [
        'request-basic.json',
        {
          system: ['You are a concise assistant.'],
          messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello in one short sentence.' }] }],
          maxTokens: 256,
          temperature: 0.2,
        },
      ],
      [
        'request-code-execution.json',
        {
          system: [],
          messages: [
            {
              role: 'user',
              content: [{ type: 'text', text: 'What is the sum of the first 10 prime numbers? Generate and run code for the calculation.' }],
            },
          ],
          builtinTools: [{ type: 'code_execution' }],
        },
      ],
      [
        'request-function-calling.json',
        {
          system: [],
          messages: [{ role: 'user', content: [{ type: 'text', text: "What's the weather in Paris and Tokyo, in celsius?" }] }],
          tools: [WEATHER_TOOL],
          toolChoice: 'auto',
        },
      ],
      [
        'request-function-response.json',
        {
          system: [],
          messages: [
            { role: 'user', content: [{ type: 'text', text: "What's the weather in Paris and Tokyo, in celsius?" }] },
            {
              role: 'assistant',
              content: [
                { type: 'tool_call', id: 'call_0', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}', signature: SIGNATURE },
                { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo","unit":"celsius"}' },
              ],
            },
            {
              role: 'tool',
              content: [
                { type: 'tool_result', toolCallId: 'call_0', name: 'get_weather', content: [{ type: 'text', text: '{"temp_c":18,"condition":"cloudy"}' }] },
                { type: 'tool_result', toolCallId: 'call_1', name: 'get_weather', content: [{ type: 'text', text: '{"temp_c":24,"condition":"sunny"}' }] },
              ],
            },
          ],
          tools: [WEATHER_TOOL],
        },
      ],
      [
        'request-image-generation.json',
        {
          system: [],
          messages: [{ role: 'user', content: [{ type: 'text', text: 'A single orange pixel on a transparent background.' }] }],
          outputModalities: ['text', 'image'],
          imageAspectRatio: '1:1',
        },
      ],
      ...(['request-multimodal.json', 'request-multimodal-camel.json'] as const).map(
        (name): [string, Omit<UnifiedRequest, 'model' | 'stream'>] => [
          name,
          {
            system: [],
            messages: [
              {
                role: 'user',
                content: [
                  { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG }, clientPath: 'contents[0].parts[0]' },
                  { type: 'text', text: 'What color is this pixel? Answer with one word.' },
                ],
              },
            ],
            maxTokens: 32,
          },
        ],
      ),
      [
        'request-thinking.json',
        {
          system: [],
          messages: [{ role: 'user', content: [{ type: 'text', text: 'Is 1071 divisible by 7? Answer yes or no with a short reason.' }] }],
          reasoning: { enabled: true, effort: 'low', includeThoughts: true },
        },
      ],
      [
        'request-thinking-budget.json',
        {
          system: [],
          messages: [{ role: 'user', content: [{ type: 'text', text: 'Is 1071 divisible by 7? Answer yes or no with a short reason.' }] }],
          reasoning: { enabled: true, budgetTokens: 1024, includeThoughts: true },
        },
      ],
      [
        'safety-settings-off.json',
        {
          system: [],
          messages: [{ role: 'user', content: [{ type: 'text', text: "Write a villain's monologue for my fantasy novel." }] }],
          extensions: {
            gemini: {
              safetySettings: [
                'HARM_CATEGORY_HARASSMENT',
                'HARM_CATEGORY_HATE_SPEECH',
                'HARM_CATEGORY_SEXUALLY_EXPLICIT',
                'HARM_CATEGORY_DANGEROUS_CONTENT',
                'HARM_CATEGORY_CIVIC_INTEGRITY',
              ].map((category) => ({ category, threshold: 'OFF' })),
            },
          },
        },
      ],
    ];
    for (const [name, expected] of cases) {
      it(`decodes ${name}`, () => {
        expect(decode(fixture(name))).to.deep.equal({ model: 'gemini-2.5-flash', stream: false, ...expected });
      });
    }
  });

  describe('model and stream come from the path', () => {
    it('strips a leading models/ and keeps the stream flag', () => {
      const decoded = decodeRequest({ contents: [user('hi')] }, { model: 'models/gemini-3-flash-preview', stream: true });
      expect(decoded.model).to.equal('gemini-3-flash-preview');
      expect(decoded.stream).to.equal(true);
    });

    it('fails naming `model` when the path gave none', () => {
      expectInvalid(() => decodeRequest({ contents: [user('hi')] }), 'model');
    });
  });

  describe('what Gemini CLI sends', () => {
    const schema = {
      type: 'object',
      properties: { file_path: { type: 'string', description: 'Absolute path' }, limit: { type: 'number' } },
      required: ['file_path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    };

    it('keeps parametersJsonSchema untouched as the tool parameters and notes the form', () => {
      const decoded = decode({
        contents: [user('read it')],
        tools: [{ functionDeclarations: [{ name: 'read_file', description: 'Reads a file', parametersJsonSchema: schema }] }],
      });
      expect(decoded.tools).to.deep.equal([{ name: 'read_file', description: 'Reads a file', parameters: schema }]);
      expect(decoded.extensions?.gemini?._parametersJsonSchemaTools).to.deep.equal(['read_file']);
    });

    it('decodes JSON mode with responseJsonSchema', () => {
      const responseJsonSchema = { type: 'object', properties: { next_speaker: { type: 'string', enum: ['user', 'model'] } }, required: ['next_speaker'] };
      const decoded = decode({
        contents: [user('who speaks next?')],
        generationConfig: { responseMimeType: 'application/json', responseJsonSchema, temperature: 0 },
      });
      expect(decoded.responseFormat).to.deep.equal({ type: 'json_schema', schema: responseJsonSchema });
      expect(decoded.temperature).to.equal(0);
    });

    it('decodes JSON mode with an OpenAPI responseSchema into JSON Schema (lowercase types, nullable unions)', () => {
      const decoded = decode({
        contents: [user('x')],
        generationConfig: {
          responseMimeType: 'application/json',
          responseSchema: { type: 'OBJECT', properties: { reason: { type: 'STRING', nullable: true }, n: { type: 'INTEGER' } } },
        },
      });
      expect(decoded.responseFormat).to.deep.equal({
        type: 'json_schema',
        schema: { type: 'object', properties: { reason: { type: ['string', 'null'] }, n: { type: 'integer' } } },
      });
    });

    it('decodes JSON mode without a schema as json_object', () => {
      expect(decode({ contents: [user('x')], generationConfig: { responseMimeType: 'application/json' } }).responseFormat).to.deep.equal({
        type: 'json_object',
      });
    });

    it('decodes temperature/topP/topK together with thinkingConfig', () => {
      const decoded = decode({
        contents: [user('x')],
        generationConfig: { temperature: 0, topP: 1, topK: 64, thinkingConfig: { includeThoughts: true, thinkingBudget: -1 } },
      });
      expect(decoded).to.include({ temperature: 0, topP: 1, topK: 64 });
      expect(decoded.reasoning).to.deep.equal({ enabled: true, includeThoughts: true });
    });

    it('matches a functionResponse to its call by the echoed id and unwraps {output}', () => {
      const decoded = decode({
        contents: [
          user('list files'),
          {
            role: 'model',
            parts: [
              { functionCall: { id: 'ls-1', name: 'list_directory', args: { path: '/a' } } },
              { functionCall: { id: 'ls-2', name: 'list_directory', args: { path: '/b' } } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { id: 'ls-2', name: 'list_directory', response: { output: 'b.txt' } } },
              { functionResponse: { id: 'ls-1', name: 'list_directory', response: { output: 'a.txt' } } },
            ],
          },
        ],
      });
      expect(decoded.messages[2]).to.deep.equal({
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'ls-2', name: 'list_directory', content: [{ type: 'text', text: 'b.txt' }] },
          { type: 'tool_result', toolCallId: 'ls-1', name: 'list_directory', content: [{ type: 'text', text: 'a.txt' }] },
        ],
      });
    });

    it('keeps the first answer to a call answered twice by id (Gemini CLI on --resume), as other upstreams refuse two', () => {
      const call = { functionCall: { id: 'ls-1', name: 'list_directory', args: { path: '/a' } } };
      const answer = (output: string) => ({ functionResponse: { id: 'ls-1', name: 'list_directory', response: { output } } });
      const decoded = decode({ contents: [user('list'), { role: 'model', parts: [call] }, { role: 'user', parts: [answer('a.txt'), answer('a.txt again')] }, { role: 'user', parts: [answer('later')] }] });
      const results = decoded.messages.flatMap((m) => m.content).filter((part) => part.type === 'tool_result');
      expect(results).to.deep.equal([{ type: 'tool_result', toolCallId: 'ls-1', name: 'list_directory', content: [{ type: 'text', text: 'a.txt' }] }]);
    });

    it('answers a later call that reuses an earlier call\'s id (an upstream numbering calls per turn) under an id of its own', () => {
      const call = (city: string) => ({ functionCall: { id: 'call_0', name: 'get_weather', args: { city } } });
      const answer = (output: string) => ({ functionResponse: { id: 'call_0', name: 'get_weather', response: { output } } });
      const decoded = decode({ contents: [user('weather?'), { role: 'model', parts: [call('Paris')] }, { role: 'user', parts: [answer('sunny')] }, { role: 'model', parts: [call('Rome')] }, { role: 'user', parts: [answer('rainy')] }] });
      expect(decoded.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'tool', 'assistant', 'tool']);
      const calls = decoded.messages.flatMap((m) => m.content).filter((part) => part.type === 'tool_call');
      const results = decoded.messages.flatMap((m) => m.content).filter((part) => part.type === 'tool_result');
      expect(calls.map((c) => c.type === 'tool_call' && c.id)).to.deep.equal(['call_0', 'call_1']);
      expect(results.map((r) => r.type === 'tool_result' && [r.toolCallId, r.content])).to.deep.equal([
        ['call_0', [{ type: 'text', text: 'sunny' }]],
        ['call_1', [{ type: 'text', text: 'rainy' }]],
      ]);
    });

    it('keeps a turn of repeated answers only as user text when it ends the conversation, so it still ends on the user', () => {
      const call = { functionCall: { id: 'ls-1', name: 'list_directory', args: { path: '/a' } } };
      const answer = (output: string) => ({ functionResponse: { id: 'ls-1', name: 'list_directory', response: { output } } });
      const decoded = decode({ contents: [user('list'), { role: 'model', parts: [call] }, { role: 'user', parts: [answer('a.txt')] }, { role: 'model', parts: [{ text: 'done' }] }, { role: 'user', parts: [answer('a.txt')] }] });
      expect(decoded.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'tool', 'assistant', 'user']);
      expect(decoded.messages[4].content).to.deep.equal([{ type: 'text', text: 'list_directory result: {"output":"a.txt"}' }]);
    });

    it('joins consecutive model turns into one assistant message (the SDK chat records each streamed chunk as a turn)', () => {
      const decoded = decode({ contents: [user('hi'), { role: 'model', parts: [{ text: 'Echo: m' }] }, { role: 'model', parts: [{ text: 'y name' }] }, user('and?')] });
      expect(decoded.messages.map((m) => [m.role, m.content])).to.deep.equal([
        ['user', [{ type: 'text', text: 'hi' }]],
        ['assistant', [{ type: 'text', text: 'Echo: m' }, { type: 'text', text: 'y name' }]],
        ['user', [{ type: 'text', text: 'and?' }]],
      ]);
    });

    it('marks {error} responses as errors', () => {
      const decoded = decode({
        contents: [
          user('x'),
          { role: 'model', parts: [{ functionCall: { name: 'run', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'run', response: { error: 'permission denied' } } }] },
        ],
      });
      expect(decoded.messages[2].content[0]).to.deep.equal({
        type: 'tool_result',
        toolCallId: 'call_0',
        name: 'run',
        content: [{ type: 'text', text: 'permission denied' }],
        isError: true,
      });
    });
  });

  describe('contents', () => {
    it('accepts snake_case everywhere (file_data, function_call, system_instruction, tool_config)', () => {
      const decoded = decode({
        system_instruction: { parts: [{ text: 'Be brief.' }] },
        contents: [
          { role: 'user', parts: [{ file_data: { mime_type: 'video/mp4', file_uri: 'https://example.com/v.mp4' } }, { text: 'describe' }] },
          { role: 'model', parts: [{ function_call: { name: 'f', args: { a_b: 1 } } }] },
          { role: 'user', parts: [{ function_response: { name: 'f', response: { result: 'ok' } } }] },
        ],
        tools: [{ function_declarations: [{ name: 'f', parameters: { type: 'object', properties: { a_b: { type: 'integer' } } } }] }],
        tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['f'] } },
        generation_config: { max_output_tokens: 10, stop_sequences: ['END'], thinking_config: { thinking_level: 'HIGH' } },
      });
      expect(decoded.system).to.deep.equal(['Be brief.']);
      expect(decoded.messages).to.deep.equal([
        {
          role: 'user',
          content: [
            { type: 'video', source: { kind: 'url', url: 'https://example.com/v.mp4' }, clientPath: 'contents[0].parts[0]' },
            { type: 'text', text: 'describe' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'call_0', name: 'f', arguments: '{"a_b":1}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_0', name: 'f', content: [{ type: 'text', text: 'ok' }] }] },
      ]);
      expect(decoded.tools?.[0].parameters).to.deep.equal({ type: 'object', properties: { a_b: { type: 'integer' } } });
      expect(decoded.toolChoice).to.deep.equal({ name: 'f' });
      expect(decoded).to.include({ maxTokens: 10 });
      expect(decoded.stop).to.deep.equal(['END']);
      expect(decoded.reasoning).to.deep.equal({ enabled: true, effort: 'high' });
    });

    it('takes a lone object where a list belongs, as the Gemini API does', () => {
      const decoded = decode({ contents: { role: 'user', parts: { text: 'Why is the sky blue?' } }, tools: { googleSearch: {} } });
      expect(decoded.messages).to.deep.equal([{ role: 'user', content: [{ type: 'text', text: 'Why is the sky blue?' }] }]);
      expect(decoded.builtinTools).to.deep.equal([{ type: 'web_search' }]);
    });

    it('defaults a missing role to user and splits function responses out of a user turn, in order', () => {
      const decoded = decode({
        contents: [
          { parts: [{ text: 'go' }] },
          { role: 'model', parts: [{ text: 'calling' }, { functionCall: { name: 'a', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'a', response: { x: 1 } } }, { text: 'and now?' }] },
        ],
      });
      expect(decoded.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'tool', 'user']);
      expect(decoded.messages[2].content[0]).to.deep.include({ toolCallId: 'call_0', content: [{ type: 'text', text: '{"x":1}' }] });
      expect(decoded.messages[3].content).to.deep.equal([{ type: 'text', text: 'and now?' }]);
    });

    it('synthesizes call ids unique across the conversation, skipping ids that were sent', () => {
      const decoded = decode({
        contents: [
          user('x'),
          { role: 'model', parts: [{ functionCall: { name: 'a' } }, { functionCall: { id: 'call_1', name: 'b' } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }, { functionResponse: { name: 'b', response: {} } }] },
          { role: 'model', parts: [{ functionCall: { name: 'a' } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }] },
        ],
      });
      const callIds = decoded.messages.flatMap((m) => m.content.flatMap((p) => (p.type === 'tool_call' ? [p.id] : [])));
      const resultIds = decoded.messages.flatMap((m) => m.content.flatMap((p) => (p.type === 'tool_result' ? [p.toolCallId] : [])));
      expect(callIds).to.deep.equal(['call_0', 'call_1', 'call_2']);
      expect(resultIds).to.deep.equal(['call_0', 'call_1', 'call_2']);
    });

    it('turns thought parts and thought signatures into gemini reasoning', () => {
      const decoded = decode({
        contents: [
          user('x'),
          {
            role: 'model',
            parts: [
              { text: 'pondering', thought: true },
              { text: 'answer', thoughtSignature: 'sig-a' },
              { functionCall: { name: 'f', args: {} }, thoughtSignature: 'sig-b' },
              { text: '', thoughtSignature: 'sig-c' },
            ],
          },
        ],
      });
      expect(decoded.messages[1].content).to.deep.equal([
        { type: 'reasoning', text: 'pondering', provider: 'gemini' },
        { type: 'reasoning', text: '', signature: 'sig-a', provider: 'gemini' },
        { type: 'text', text: 'answer' },
        { type: 'tool_call', id: 'call_0', name: 'f', arguments: '{}', signature: 'sig-b' },
        { type: 'reasoning', text: '', signature: 'sig-c', provider: 'gemini' },
      ]);
    });

    it('renders code execution parts as fenced blocks', () => {
      const decoded = decode({
        contents: [
          user('x'),
          {
            role: 'model',
            parts: [
              { executableCode: { language: 'PYTHON', code: 'print(1)\n' } },
              { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } },
            ],
          },
        ],
      });
      expect(decoded.messages[1].content).to.deep.equal([
        { type: 'text', text: '\n```python\nprint(1)\n```\n' },
        { type: 'text', text: '\n```output\n1\n```\n' },
      ]);
    });

    it('takes a YouTube fileUri without MIME type as a video', () => {
      const decoded = decode({ contents: [{ parts: [{ fileData: { fileUri: 'https://www.youtube.com/watch?v=9hE5-98ZeCg' } }, { text: 'summarize' }] }] });
      expect(decoded.messages[0].content[0]).to.deep.equal({ type: 'video', source: { kind: 'url', url: 'https://www.youtube.com/watch?v=9hE5-98ZeCg' }, clientPath: 'contents[0].parts[0]' });
    });

    it('maps inline media by MIME type and multimodal function responses', () => {
      const decoded = decode({
        contents: [
          { role: 'user', parts: [{ inlineData: { mimeType: 'audio/wav', data: 'AAAA' } }, { inlineData: { mimeType: 'application/pdf', data: 'JVBE' } }] },
          { role: 'model', parts: [{ functionCall: { name: 'shot', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'shot', response: { result: 'done' }, parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] } }] },
        ],
      });
      expect(decoded.messages[0].content.map((p) => p.type)).to.deep.equal(['audio', 'file']);
      expect(decoded.messages[2].content[0]).to.deep.equal({
        type: 'tool_result',
        toolCallId: 'call_0',
        name: 'shot',
        content: [
          { type: 'text', text: 'done' },
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG }, clientPath: 'contents[2].parts[0].functionResponse.parts[0]' },
        ],
      });
    });
  });

  describe('tools and config', () => {
    it('maps search and code-execution tools in every spelling to builtin tools, once each', () => {
      const decoded = decode({
        contents: [user('x')],
        tools: [{ googleSearch: {} }, { google_search: {} }, { webSearch: {} }, { codeExecution: {} }, { urlContext: {} }],
      });
      expect(decoded.builtinTools).to.deep.equal([{ type: 'web_search' }, { type: 'code_execution' }]);
      expect(decoded.extensions?.gemini?.tools).to.deep.equal([{ urlContext: {} }]);
    });

    it('lowercases OpenAPI types of `parameters` and a missing schema is an empty object schema', () => {
      const decoded = decode({
        contents: [user('x')],
        tools: [{ functionDeclarations: [{ name: 'a', parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } } } }, { name: 'b' }] }],
      });
      expect(decoded.tools).to.deep.equal([
        { name: 'a', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
        { name: 'b', parameters: { type: 'object', properties: {} } },
      ]);
    });

    const choices: Array<[Record<string, unknown>, unknown]> = [
      [{ mode: 'AUTO' }, 'auto'],
      [{ mode: 'NONE' }, 'none'],
      [{ mode: 'ANY' }, 'required'],
      [{ mode: 'ANY', allowedFunctionNames: ['f'] }, { name: 'f' }],
    ];
    for (const [config, expected] of choices) {
      it(`maps functionCallingConfig ${JSON.stringify(config)}`, () => {
        const decoded = decode({ contents: [user('x')], toolConfig: { functionCallingConfig: config } });
        expect(decoded.toolChoice).to.deep.equal(expected);
        expect(decoded.extensions).to.equal(undefined);
      });
    }

    it('keeps a tool config it cannot express (several allowed names) for a Gemini upstream', () => {
      const toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f', 'g'] } };
      const decoded = decode({ contents: [user('x')], toolConfig });
      expect(decoded.toolChoice).to.equal('required');
      expect(decoded.extensions?.gemini?.toolConfig).to.deep.equal(toolConfig);
    });

    it('counts a body asking for several candidates (a count answers none)', () => {
      const counted = geminiCodec.decodeRequest({ contents: [user('x')], generationConfig: { candidateCount: 3 } }, { model: 'm', countOnly: true });
      expect(counted.messages).to.have.length(1);
    });

    it('declares only the allowed functions under ANY with several allowed names, which other formats cannot say', () => {
      const fn = (name: string) => ({ name, parameters: { type: 'OBJECT', properties: {} } });
      const tools = [{ functionDeclarations: [fn('f'), fn('g'), fn('h')] }];
      const decoded = decode({ contents: [user('x')], tools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f', 'h'] } } });
      expect(decoded.tools?.map((tool) => tool.name)).to.deep.equal(['f', 'h']);
      expect(decoded.toolChoice).to.equal('required');
      // VALIDATED binds them too, without forcing a call.
      const validated = decode({ contents: [user('x')], tools, toolConfig: { functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['g'] } } });
      expect(validated.tools?.map((tool) => tool.name)).to.deep.equal(['g']);
      expect(validated.toolChoice).to.equal('auto');
      // AUTO keeps every function: the names only bind under ANY and VALIDATED.
      const auto = decode({ contents: [user('x')], tools, toolConfig: { functionCallingConfig: { mode: 'AUTO', allowedFunctionNames: ['f'] } } });
      expect(auto.tools?.map((tool) => tool.name)).to.deep.equal(['f', 'g', 'h']);
      expect(() => decode({ contents: [user('x')], tools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['nope'] } } })).to.throw(
        /allowedFunctionNames.*names no declared function/,
      );
    });

    it('decodes every generationConfig field and keeps the rest in extensions', () => {
      const decoded = decode({
        contents: [user('x')],
        generationConfig: {
          maxOutputTokens: 100,
          temperature: 0.5,
          topP: 0.9,
          topK: 40,
          stopSequences: ['x'],
          seed: 7,
          presencePenalty: 0.1,
          frequencyPenalty: 0.2,
          responseModalities: ['TEXT', 'IMAGE'],
          imageConfig: { aspectRatio: '16:9', imageSize: '2K' },
          candidateCount: 1,
          responseLogprobs: true,
          thinkingConfig: { thinkingBudget: 0 },
        },
        cachedContent: 'cachedContents/abc',
      });
      expect(decoded).to.include({ maxTokens: 100, temperature: 0.5, topP: 0.9, topK: 40, seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.2 });
      expect(decoded.outputModalities).to.deep.equal(['text', 'image']);
      expect(decoded.imageAspectRatio).to.equal('16:9');
      expect(decoded.reasoning).to.deep.equal({ enabled: false });
      expect(decoded.extensions).to.deep.equal({
        gemini: {
          cachedContent: 'cachedContents/abc',
          generationConfig: { candidateCount: 1, responseLogprobs: true, imageConfig: { imageSize: '2K' } },
        },
      });
    });
  });

  describe('bad input → GW_INVALID_REQUEST naming the field', () => {
    const cases: Array<[string, unknown, string]> = [
      ['a body that is not an object', 'hello', 'body'],
      ['no contents', { generationConfig: {} }, 'contents'],
      ['empty contents', { contents: [] }, 'contents'],
      ['contents not an array', { contents: 'hello' }, 'contents'],
      ['a bad role', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'contents[0].role'],
      ['a content without parts', { contents: [{ role: 'user' }] }, 'contents[0].parts'],
      ['empty parts', { contents: [{ role: 'user', parts: [] }] }, 'contents[0].parts'],
      ['a part with no known field', { contents: [{ role: 'user', parts: [{ text: 'a' }, { foo: 1 }] }] }, 'contents[0].parts[1]'],
      ['text that is not a string', { contents: [{ role: 'user', parts: [{ text: 42 }] }] }, 'contents[0].parts[0].text'],
      ['inlineData without data', { contents: [{ parts: [{ inlineData: { mimeType: 'image/png' } }] }] }, 'contents[0].parts[0].inlineData.data'],
      ['snake and camel of one field', { contents: [{ parts: [{ inlineData: { mimeType: 'a/b', data: '' }, inline_data: { mime_type: 'a/b', data: '' } }] }] }, 'contents[0].parts[0].inlineData'],
      ['functionCall args not an object', { contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: '{}' } }] }] }, 'contents[0].parts[0].functionCall.args'],
      ['functionCall without a name', { contents: [{ role: 'model', parts: [{ functionCall: { args: {} } }] }] }, 'contents[0].parts[0].functionCall.name'],
      ['functionResponse response not an object', { contents: [{ parts: [{ functionResponse: { name: 'f', response: 'ok' } }] }] }, 'contents[0].parts[0].functionResponse.response'],
      ['a function call in a user turn', { contents: [{ role: 'user', parts: [{ functionCall: { name: 'f' } }] }] }, 'contents[0].parts[0].functionCall'],
      ['a function response in a model turn', { contents: [{ role: 'model', parts: [{ functionResponse: { name: 'f', response: {} } }] }] }, 'contents[0].parts[0].functionResponse'],
      ['maxOutputTokens as a string', { contents: [user('x')], generationConfig: { maxOutputTokens: '10' } }, 'generationConfig.maxOutputTokens'],
      ['temperature as a string', { contents: [user('x')], generationConfig: { temperature: 'hot' } }, 'generationConfig.temperature'],
      ['an unknown modality', { contents: [user('x')], generationConfig: { responseModalities: ['SMELL'] } }, 'generationConfig.responseModalities[0]'],
      ['thinkingBudget as a string', { contents: [user('x')], generationConfig: { thinkingConfig: { thinkingBudget: 'lots' } } }, 'generationConfig.thinkingConfig.thinkingBudget'],
      ['tools not an array', { contents: [user('x')], tools: 'googleSearch' }, 'tools'],
      ['a declaration without a name', { contents: [user('x')], tools: [{ functionDeclarations: [{ description: 'x' }] }] }, 'tools[0].functionDeclarations[0].name'],
      ['an unknown calling mode', { contents: [user('x')], toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } }, 'toolConfig.functionCallingConfig.mode'],
      ['a non-text system part', { contents: [user('x')], systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] } }, 'systemInstruction.parts[0]'],
      ['safetySettings not a list', { contents: [user('x')], safetySettings: 'OFF' }, 'safetySettings'],
      ['more than one candidate (a translation answers one)', { contents: [user('x')], generationConfig: { candidateCount: 3 } }, 'generationConfig.candidateCount'],
    ];
    for (const [what, body, param] of cases) {
      it(`rejects ${what} (${param})`, () => expectInvalid(() => decode(body), param));
    }
  });
});

function expectInvalid(fn: () => unknown, param: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(isGatewayError(caught), 'throws a GatewayError').to.equal(true);
  if (!isGatewayError(caught)) return;
  expect(caught.code).to.equal('GW_INVALID_REQUEST');
  expect(caught.status).to.equal(400);
  expect(caught.message.startsWith(`${param}:`), `"${caught.message}" names ${param}`).to.equal(true);
}
