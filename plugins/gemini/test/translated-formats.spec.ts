import { expect } from 'chai';
import nock from 'nock';
import { fixtureBytes, fixtureJson, replayChunks, SSE_HEADERS } from '../../../test/helpers/fixtures';
import { startGateway, type RunningGateway } from '../../../test/helpers/start-gateway';
import { KEY_A, postJson, SAFETY_OFF, sseData, UPSTREAM, type SeenRequest } from './helpers';

interface ChatCompletion {
  model: string;
  choices: Array<{
    message: { content: string | null; reasoning_content?: string; tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }> };
    finish_reason: string;
  }>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

describe('gemini plugin: translated formats (nock replays)', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ gemini: { plugin: 'gemini', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }] } });
  });
  after(() => gw.close());

  /** Replies with a Gemini fixture (or bytes) and records the request the gateway built. */
  function upstream(reply: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): SeenRequest[] {
    const seen: SeenRequest[] = [];
    nock(UPSTREAM)
      .post(/^\/v1beta\/models\//)
      .query(true)
      .reply(function (uri, body) {
        seen.push({ path: uri, headers: this.req.headers, body: body as Record<string, unknown>, raw: '' });
        return [200, typeof reply === 'function' ? (reply as () => unknown)() : reply, headers];
      });
    return seen;
  }

  const chat = (body: Record<string, unknown>): Promise<Response> => postJson(`${gw.url}/gemini/v1/chat/completions`, body);

  describe('chat completions', () => {
    it('encodes the request for Gemini with the default safety settings and decodes the answer', async () => {
      const seen = upstream(fixtureJson('gemini/response-basic.json'));
      const res = await chat({
        model: 'gemini-2.5-flash',
        max_tokens: 256,
        temperature: 0.2,
        messages: [
          { role: 'system', content: 'You are a concise assistant.' },
          { role: 'user', content: 'Say hello in one short sentence.' },
        ],
      });
      expect(res.status).to.equal(200);
      const completion = (await res.json()) as ChatCompletion;
      expect(completion.choices[0].message.content).to.equal('Hello, nice to meet you!');
      expect(completion.choices[0].finish_reason).to.equal('stop');
      expect(completion.usage).to.include({ prompt_tokens: 13, completion_tokens: 51, total_tokens: 64 });

      expect(seen[0].path).to.equal('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(seen[0].headers['x-goog-api-key']).to.equal(KEY_A);
      const { safetySettings, ...rest } = seen[0].body;
      expect(rest).to.deep.equal(fixtureJson('gemini/request-basic.json'));
      expect(safetySettings).to.deep.equal(SAFETY_OFF);
    });

    it("asks again at the output cap Gemini's 400 states (its range is exclusive at the top), and at that cap for the model's later calls", async () => {
      const limits: unknown[] = [];
      nock(UPSTREAM)
        .post('/v1beta/models/gemini-2.0-flash:generateContent')
        .times(3)
        .reply((_uri, body) => {
          const asked = (body as { generationConfig: { maxOutputTokens: number } }).generationConfig.maxOutputTokens;
          limits.push(asked);
          if (asked <= 8192) return [200, fixtureJson('gemini/response-basic.json')];
          const message = `Unable to submit request because it has a maxOutputTokens value of ${asked} but the supported range is from 1 (inclusive) to 8193 (exclusive). Update the value and try again.`;
          return [400, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } }];
        });
      const ask = () => chat({ model: 'gemini-2.0-flash', max_tokens: 32000, messages: [{ role: 'user', content: 'hi' }] });
      const res = await ask();
      expect(res.status).to.equal(200);
      expect(((await res.json()) as ChatCompletion).choices[0].message.content).to.equal('Hello, nice to meet you!');
      expect((await ask()).status).to.equal(200);
      expect(limits).to.deep.equal([32000, 8192, 8192]);
    });

    it('streams: asks the upstream for SSE and turns each event into chat chunks as it comes', async () => {
      const seen = upstream(() => replayChunks(fixtureBytes('gemini/stream-basic.sse'), 5), SSE_HEADERS);
      const res = await chat({ model: 'gemini-2.5-flash', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] });
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
      const events = sseData(await res.text());
      expect(events.at(-1)).to.equal('[DONE]');
      const chunks = events.slice(0, -1).map((data) => JSON.parse(data) as { choices: Array<{ delta: { content?: string }; finish_reason: string | null }>; usage?: { total_tokens: number } });
      expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).to.equal('Hello, nice to meet you!');
      expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'stop')).to.equal(true);
      expect(chunks.at(-1)?.usage?.total_tokens).to.equal(64);
      expect(seen[0].path).to.equal('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    });

    it('declares function tools with schemas pruned to what Gemini accepts and returns its calls with stable ids', async () => {
      const seen = upstream(fixtureJson('gemini/response-function-call.json'));
      const request = {
        model: 'gemini-2.5-flash',
        messages: [{ role: 'user', content: 'Weather in Paris and Tokyo?' }],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Get the current weather for a city.',
              parameters: {
                $schema: 'http://json-schema.org/draft-07/schema#',
                type: 'object',
                additionalProperties: false,
                properties: { city: { type: 'string', description: 'City name' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] }, note: { type: ['string', 'null'] } },
                required: ['city'],
              },
            },
          },
        ],
      };
      const first = (await (await chat(request)).json()) as ChatCompletion;
      const declaration = ((seen[0].body.tools as Array<{ functionDeclarations: Array<{ name: string; parameters: Record<string, unknown> }> }>)[0]).functionDeclarations[0];
      expect(declaration.name).to.equal('get_weather');
      expect(declaration.parameters).not.to.have.any.keys('$schema', 'additionalProperties');
      expect(declaration.parameters.required).to.deep.equal(['city']);
      expect((declaration.parameters.properties as Record<string, unknown>).unit).to.deep.include({ enum: ['celsius', 'fahrenheit'] });
      expect((declaration.parameters.properties as Record<string, unknown>).note).to.deep.include({ nullable: true });

      const message = first.choices[0].message;
      expect(first.choices[0].finish_reason).to.equal('tool_calls');
      expect(message.tool_calls?.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).to.deep.equal([
        ['get_weather', { city: 'Paris', unit: 'celsius' }],
        ['get_weather', { city: 'Tokyo', unit: 'celsius' }],
      ]);
      const ids = message.tool_calls?.map((call) => call.id) ?? [];
      expect(new Set(ids).size).to.equal(2);

      upstream(fixtureJson('gemini/response-function-call.json'));
      const again = (await (await chat(request)).json()) as ChatCompletion;
      expect(again.choices[0].message.tool_calls?.map((call) => call.id)).to.deep.equal(ids);
    });

    it('sends tool results back as functionResponse parts under the called function\'s name', async () => {
      const seen = upstream(fixtureJson('gemini/response-basic.json'));
      await chat({
        model: 'gemini-2.5-flash',
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'call_0', content: '{"temperature":21}' },
        ],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      });
      const contents = seen[0].body.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
      expect(contents[1].role).to.equal('model');
      expect(contents[1].parts[0].functionCall).to.deep.include({ name: 'get_weather', args: { city: 'Paris' } });
      expect(contents[2].role).to.equal('user');
      expect(contents[2].parts[0].functionResponse).to.deep.include({ name: 'get_weather', response: { temperature: 21 } });
    });

    it('turns a codeExecution tool into code execution and returns code and output as fenced text', async () => {
      const seen = upstream(fixtureJson('gemini/response-code-execution.json'));
      const res = await chat({
        model: 'gemini-2.5-flash',
        messages: [{ role: 'user', content: 'Sum of the first 10 primes?' }],
        tools: [{ type: 'function', function: { name: 'codeExecution' } }],
      });
      expect(seen[0].body.tools).to.deep.equal([{ codeExecution: {} }]);
      const content = ((await res.json()) as ChatCompletion).choices[0].message.content ?? '';
      expect(content).to.include("I'll compute this with a short Python script.");
      expect(content).to.include('```python\nprimes = []');
      expect(content).to.include('```output\n[2, 3, 5, 7, 11, 13, 17, 19, 23, 29] 129\n```');
      expect(content).to.include('The sum of the first 10 prime numbers is **129**.');
    });

    it('strips -thinking, asks for thoughts, and returns them as reasoning_content', async () => {
      const seen = upstream(fixtureJson('gemini/response-thinking.json'));
      const res = await chat({ model: 'gemini-3-flash-preview-thinking', messages: [{ role: 'user', content: 'Is 1071 divisible by 7?' }] });
      expect(seen[0].path).to.equal('/v1beta/models/gemini-3-flash-preview:generateContent');
      expect((seen[0].body.generationConfig as Record<string, unknown>).thinkingConfig).to.deep.equal({ includeThoughts: true });
      const message = ((await res.json()) as ChatCompletion).choices[0].message;
      expect(message.reasoning_content).to.match(/^\*\*Checking divisibility\*\*/);
      expect(message.content).to.equal('Yes — 1071 = 7 × 153.');
    });

    it('lets the client\'s own reasoning setting win over the -thinking suffix', async () => {
      const seen = upstream(fixtureJson('gemini/response-basic.json'));
      await chat({ model: 'gemini-2.5-flash-thinking', reasoning_effort: 'none', messages: [{ role: 'user', content: 'quick' }] });
      expect(seen[0].path).to.equal('/v1beta/models/gemini-2.5-flash:generateContent');
      expect((seen[0].body.generationConfig as Record<string, unknown>).thinkingConfig).to.deep.equal({ thinkingBudget: 0 });
    });

    it('generates images with an image model: TEXT+IMAGE, the nearest aspect ratio, markdown data-URI images', async () => {
      const seen = upstream(fixtureJson('gemini/response-image.json'));
      const res = await chat({ model: 'gemini-2.5-flash-image', size: '1536x1024', messages: [{ role: 'user', content: 'An orange pixel' }] });
      const config = seen[0].body.generationConfig as Record<string, unknown>;
      expect(config.responseModalities).to.deep.equal(['TEXT', 'IMAGE']);
      expect(config.imageConfig).to.deep.equal({ aspectRatio: '3:2' });
      const content = ((await res.json()) as ChatCompletion).choices[0].message.content ?? '';
      const png = (fixtureJson('gemini/response-image.json') as { candidates: Array<{ content: { parts: Array<{ inlineData?: { data: string } }> } }> }).candidates[0].content.parts[1].inlineData?.data;
      expect(content).to.include('Here is a single orange pixel.');
      expect(content).to.include(`![image](data:image/png;base64,${png})`);
    });

    it('streams a generated image as a markdown chunk', async () => {
      const image = fixtureJson('gemini/response-image.json');
      upstream(() => `data: ${JSON.stringify(image)}\r\n\r\n`, SSE_HEADERS);
      const res = await chat({ model: 'gemini-2.5-flash-image', stream: true, messages: [{ role: 'user', content: 'An orange pixel' }] });
      const text = sseData(await res.text())
        .filter((data) => data !== '[DONE]')
        .map((data) => (JSON.parse(data) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
        .join('');
      expect(text).to.match(/!\[image\]\(data:image\/png;base64,iVBOR[^)]+\)/);
    });

    it('maps an upstream 400 to the OpenAI shape, keeping the upstream message', async () => {
      nock(UPSTREAM).post(/.*/).reply(400, fixtureJson('gemini/error-400.json'));
      const res = await chat({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).to.equal(400);
      const body = (await res.json()) as { error: { message: string; type: string } };
      expect(body.error.message).to.match(/^Invalid JSON payload received\. Unknown name "max_tokens"/);
      expect(body.error.type).to.equal('invalid_request_error');
    });

    it('reports a late upstream error in the stream as a chat error event', async () => {
      upstream(
        () => `data: ${JSON.stringify(fixtureJson('gemini/response-basic.json'))}\r\n\r\ndata: ${JSON.stringify({ error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } })}\r\n\r\n`,
        SSE_HEADERS,
      );
      const res = await chat({ model: 'gemini-2.5-flash', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      const events = sseData(await res.text());
      expect(events.join('\n')).to.include('An internal error has occurred.');
    });
  });

  describe('function names Gemini refuses (a digit first: MCP tools such as 21st_magic_component_builder)', () => {
    const USAGE = { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 };
    /** Gemini's answer calling `name` with `args`. */
    const calling = (name: string, args: Record<string, unknown>) => ({
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name, args } }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: USAGE,
      modelVersion: 'gemini-2.5-flash',
    });
    const streamed = (name: string, args: Record<string, unknown>) => Buffer.from(`data: ${JSON.stringify(calling(name, args))}\r\n\r\n`);
    const declarationNames = (body: Record<string, unknown>) => (body.tools as Array<{ functionDeclarations: Array<{ name: string }> }>)[0].functionDeclarations.map((d) => d.name);
    const builder = { type: 'function', function: { name: '21st_magic_component_builder', parameters: { type: 'object', properties: { message: { type: 'string' } } } } };

    it('chat: go valid everywhere in the request, and come back as the client named them, whole and streamed', async () => {
      const seen = upstream(calling('_21st_magic_component_builder', { message: 'again' }));
      const messages = [
        { role: 'user', content: 'build a button' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: '21st_magic_component_builder', arguments: '{"message":"button"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'built' },
      ];
      const tool_choice = { type: 'function', function: { name: '21st_magic_component_builder' } };
      const res = await chat({ model: 'gemini-2.5-flash', tools: [builder], tool_choice, messages });
      expect(res.status).to.equal(200);
      const completion = (await res.json()) as ChatCompletion;
      expect(completion.choices[0].message.tool_calls?.map((call) => call.function.name)).to.deep.equal(['21st_magic_component_builder']);
      const sent = seen[0].body;
      expect(declarationNames(sent)).to.deep.equal(['_21st_magic_component_builder']);
      expect(sent.toolConfig).to.deep.equal({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['_21st_magic_component_builder'] } });
      const contents = sent.contents as Array<{ parts: Array<{ functionCall?: { name: string }; functionResponse?: { name: string } }> }>;
      expect([contents[1].parts[0].functionCall?.name, contents[2].parts[0].functionResponse?.name]).to.deep.equal(['_21st_magic_component_builder', '_21st_magic_component_builder']);

      upstream(() => replayChunks(streamed('_21st_magic_component_builder', { message: 'x' }), 9), SSE_HEADERS);
      const stream = await chat({ model: 'gemini-2.5-flash', stream: true, tools: [builder], messages: [{ role: 'user', content: 'build' }] });
      const chunks = sseData(await stream.text())
        .slice(0, -1)
        .map((data) => JSON.parse(data) as { choices: Array<{ delta: { tool_calls?: Array<{ function: { name?: string } }> } }> });
      const names = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []).flatMap((call) => (call.function.name ? [call.function.name] : []));
      expect(names).to.deep.equal(['21st_magic_component_builder']);
    });

    it('responses: a Codex namespace tool comes back under its own name', async () => {
      const seen = upstream(calling('_21st_magic_component_builder', { message: 'x' }));
      const res = await postJson(`${gw.url}/gemini/v1/responses`, {
        model: 'gemini-2.5-flash',
        input: 'build',
        tools: [{ type: 'namespace', name: 'mcp__magic__', tools: [{ type: 'function', name: '21st_magic_component_builder', parameters: { type: 'object', properties: { message: { type: 'string' } } } }] }],
      });
      expect(res.status).to.equal(200);
      const body = (await res.json()) as { output: Array<{ type: string; name?: string }> };
      expect(body.output.filter((item) => item.type === 'function_call').map((item) => item.name)).to.deep.equal(['21st_magic_component_builder']);
      expect(declarationNames(seen[0].body)).to.deep.equal(['_21st_magic_component_builder']);
    });

    it('messages: a streamed tool_use block carries the client\'s name', async () => {
      const seen = upstream(() => replayChunks(streamed('_2fa_code', { a: 'x' }), 9), SSE_HEADERS);
      const res = await postJson(`${gw.url}/gemini/v1/messages`, {
        model: 'gemini-2.5-flash',
        max_tokens: 100,
        stream: true,
        tools: [{ name: '2fa_code', input_schema: { type: 'object', properties: { a: { type: 'string' } } } }],
        messages: [{ role: 'user', content: 'code?' }],
      });
      const blocks = sseData(await res.text())
        .map((data) => JSON.parse(data) as { type: string; content_block?: { type: string; name?: string } })
        .filter((event) => event.type === 'content_block_start' && event.content_block?.type === 'tool_use');
      expect(blocks.map((event) => event.content_block?.name)).to.deep.equal(['2fa_code']);
      expect(declarationNames(seen[0].body)).to.deep.equal(['_2fa_code']);
    });
  });

  describe('stop sequences past Gemini\'s 5', () => {
    it('are refused to a messages client with a 400 naming the field, without an upstream call', async () => {
      const any = nock(UPSTREAM).post(/.*/).query(true).reply(200, {});
      const res = await postJson(`${gw.url}/gemini/v1/messages`, {
        model: 'gemini-2.5-flash',
        max_tokens: 100,
        stop_sequences: ['</a>', '</b>', '</c>', '</d>', '</e>', '</f>'],
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(res.status).to.equal(400);
      const body = (await res.json()) as { type: string; error: { type: string; message: string } };
      expect(body.error.type).to.equal('invalid_request_error');
      expect(body.error.message).to.match(/^stop: Gemini takes at most 5 stop sequences/);
      expect(any.isDone()).to.equal(false);
      nock.cleanAll();
    });
  });

  describe('responses and messages', () => {
    it('answers a responses request, with reasoning items for thoughts', async () => {
      const seen = upstream(fixtureJson('gemini/response-thinking.json'));
      const res = await postJson(`${gw.url}/gemini/v1/responses`, { model: 'gemini-3-flash-preview-thinking', input: 'Is 1071 divisible by 7?' });
      expect(res.status).to.equal(200);
      const body = (await res.json()) as { object: string; output: Array<{ type: string; summary?: Array<{ text: string }>; content?: Array<{ type: string; text: string }> }> };
      expect(body.object).to.equal('response');
      const reasoning = body.output.find((item) => item.type === 'reasoning');
      expect(reasoning?.summary?.[0]?.text).to.match(/Checking divisibility/);
      const message = body.output.find((item) => item.type === 'message');
      expect(message?.content?.[0]).to.deep.include({ type: 'output_text', text: 'Yes — 1071 = 7 × 153.' });
      expect(seen[0].body.safetySettings).to.deep.equal(SAFETY_OFF);
    });

    it('answers a messages request, with thinking blocks for thoughts', async () => {
      const seen = upstream(fixtureJson('gemini/response-thinking.json'));
      const res = await postJson(`${gw.url}/gemini/v1/messages`, {
        model: 'gemini-3-flash-preview-thinking',
        max_tokens: 1024,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Is 1071 divisible by 7?' }],
      });
      expect(res.status).to.equal(200);
      const body = (await res.json()) as { type: string; content: Array<{ type: string; thinking?: string; text?: string }>; stop_reason: string };
      expect(body.type).to.equal('message');
      expect(body.content[0].type).to.equal('thinking');
      expect(body.content[0].thinking).to.match(/Checking divisibility/);
      expect(body.content.find((block) => block.type === 'text')?.text).to.equal('Yes — 1071 = 7 × 153.');
      expect(body.stop_reason).to.equal('end_turn');
      expect(seen[0].body.systemInstruction).to.deep.equal({ parts: [{ text: 'Be brief.' }] });
    });

    it('counts the tokens of a messages request with Gemini\'s counter', async () => {
      let seen: { path: string; body: Record<string, unknown> } | undefined;
      nock(UPSTREAM)
        .post(/:countTokens$/)
        .reply((uri, body) => {
          seen = { path: uri, body: body as Record<string, unknown> };
          return [200, { totalTokens: 42, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 42 }] }];
        });
      const res = await postJson(`${gw.url}/gemini/v1/messages/count_tokens`, {
        model: 'gemini-2.5-flash-thinking',
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'How many tokens is this?' }],
        tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
      });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ input_tokens: 42 });
      expect(seen?.path).to.equal('/v1beta/models/gemini-2.5-flash:countTokens');
      const inner = seen?.body.generateContentRequest as Record<string, unknown>;
      expect(inner.model).to.equal('models/gemini-2.5-flash');
      expect(inner.systemInstruction).to.deep.equal({ parts: [{ text: 'Be brief.' }] });
      expect(inner.contents).to.deep.equal([{ role: 'user', parts: [{ text: 'How many tokens is this?' }] }]);
      expect(inner).to.have.property('tools');
      expect(inner).not.to.have.any.keys('generationConfig', 'safetySettings');
    });

    it('refuses a model with `..` segments in each client format, without an upstream call', async () => {
      const any = nock(UPSTREAM).post(/.*/).query(true).reply(200, {});
      const model = '../../../../tenant-b/admin/secret';
      const calls: Array<[string, Record<string, unknown>]> = [
        ['/v1/chat/completions', { model, messages: [{ role: 'user', content: 'x' }] }],
        ['/v1/responses', { model, input: 'x' }],
        ['/v1/messages', { model, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }],
        ['/v1/messages/count_tokens', { model, messages: [{ role: 'user', content: 'x' }] }],
      ];
      for (const [path, body] of calls) {
        const res = await postJson(`${gw.url}/gemini${path}`, body);
        expect(res.status, path).to.equal(400);
        expect(await res.text(), path).to.include('is not a Gemini model name');
      }
      expect(any.isDone()).to.equal(false);
      nock.cleanAll();
    });

    it("answers an upstream overload to a messages client as Anthropic's 529 overloaded_error", async () => {
      nock(UPSTREAM).post(/.*/).reply(503, { error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } });
      const res = await postJson(`${gw.url}/gemini/v1/messages`, { model: 'gemini-2.5-flash', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).to.equal(529);
      const body = (await res.json()) as { type: string; error: { type: string; message: string } };
      expect(body.error).to.deep.equal({ type: 'overloaded_error', message: 'The model is overloaded. Please try again later.' });
    });
  });
});
