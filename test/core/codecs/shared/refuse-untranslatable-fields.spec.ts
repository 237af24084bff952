import { expect } from 'chai';
import { CODECS } from '../../../../core/codecs';
import { isGatewayError } from '../../../../core/errors/gateway-error';

const chat = (extra: Record<string, unknown>) => CODECS['chat-completions'].decodeRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('fields another format cannot answer (chat logprobs and audio output, Gemini cachedContent)', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['logprobs', { logprobs: true, top_logprobs: 3 }, 'logprobs'],
    ['top_logprobs alone', { top_logprobs: 2 }, 'top_logprobs'],
    ['audio output', { modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }, 'modalities[1]'],
  ];
  for (const target of ['messages', 'gemini', 'responses'] as const) {
    for (const [name, fields, param] of cases) {
      it(`${target} upstream: ${name} is a 400 naming ${param}`, () => {
        let caught: unknown;
        try {
          CODECS[target].encodeRequest(chat(fields));
        } catch (error) {
          caught = error;
        }
        expect(isGatewayError(caught) && caught.code).to.equal('GW_INVALID_REQUEST');
        expect(isGatewayError(caught) && caught.param).to.equal(param);
      });
    }
  }

  it('asking for none of them, or a chat upstream, is no refusal', () => {
    expect(() => CODECS.messages.encodeRequest(chat({ logprobs: false, top_logprobs: 0, modalities: ['text'] }))).not.to.throw();
    expect(CODECS['chat-completions'].encodeRequest(chat({ logprobs: true, top_logprobs: 3 })).value).to.include({ logprobs: true, top_logprobs: 3 });
  });

  it('Gemini cachedContent is a 400 on every other upstream, and goes to a Gemini one', () => {
    const gemini = CODECS.gemini.decodeRequest({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], cachedContent: 'cachedContents/abc123' }, { model: 'm', stream: false });
    for (const target of ['messages', 'chat-completions', 'responses'] as const) {
      expect(() => CODECS[target].encodeRequest(gemini), target).to.throw(/^cachedContent: content cached at Google is not available on this platform/);
    }
    expect(CODECS.gemini.encodeRequest(gemini).value).to.include({ cachedContent: 'cachedContents/abc123' });
  });

  /** The param of the 400 each target answers, or 'carried' when it takes the request. */
  function outcomes(decoded: ReturnType<typeof chat>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const target of ['messages', 'chat-completions', 'responses', 'gemini'] as const) {
      try {
        CODECS[target].encodeRequest(decoded);
        out[target] = 'carried';
      } catch (error) {
        out[target] = isGatewayError(error) ? `400 ${String(error.param)}` : String(error);
      }
    }
    return out;
  }

  const gemini = (extra: Record<string, unknown>) =>
    CODECS.gemini.decodeRequest({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], ...extra }, { model: 'm', stream: false });
  const responses = (extra: Record<string, unknown>) => CODECS.responses.decodeRequest({ model: 'm', input: 'hi', ...extra });
  const messages = (extra: Record<string, unknown>) => CODECS.messages.decodeRequest({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...extra });

  it('Gemini log probabilities, enum output, audio output and tools kept at Google are a 400 off Gemini', () => {
    const off = (param: string) => ({ messages: `400 ${param}`, 'chat-completions': `400 ${param}`, responses: `400 ${param}`, gemini: 'carried' });
    expect(outcomes(gemini({ generationConfig: { responseLogprobs: true, logprobs: 3 } }))).to.deep.equal(off('generationConfig.responseLogprobs'));
    expect(outcomes(gemini({ generationConfig: { responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['yes', 'no'] } } }))).to.deep.equal(off('generationConfig.responseMimeType'));
    expect(outcomes(gemini({ generationConfig: { responseModalities: ['AUDIO'] } }))).to.deep.equal(off('generationConfig.responseModalities'));
    // Images alone: no answer a text-only upstream gives is one; beside text, its text answers.
    expect(outcomes(gemini({ generationConfig: { responseModalities: ['IMAGE'] } }))).to.deep.equal(off('generationConfig.responseModalities'));
    expect(outcomes(gemini({ generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } }))).to.deep.equal({ messages: 'carried', 'chat-completions': 'carried', responses: 'carried', gemini: 'carried' });
    for (const tool of [{ urlContext: {} }, { fileSearch: { fileSearchStoreNames: ['fileSearchStores/x'] } }, { googleMaps: {} }]) {
      expect(outcomes(gemini({ tools: [tool] })), Object.keys(tool)[0]).to.deep.equal(off('tools'));
    }
    expect(outcomes(gemini({ tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'f' }] }] }))).to.deep.equal({ messages: 'carried', 'chat-completions': 'carried', responses: 'carried', gemini: 'carried' });
  });

  it('a Responses stored prompt and log probabilities are a 400 off a Responses upstream', () => {
    const off = (param: string) => ({ messages: `400 ${param}`, 'chat-completions': `400 ${param}`, responses: 'carried', gemini: `400 ${param}` });
    expect(outcomes(responses({ prompt: { id: 'pmpt_abc123', version: '2', variables: { city: 'Paris' } } }))).to.deep.equal(off('prompt'));
    expect(outcomes(responses({ top_logprobs: 3 }))).to.deep.equal(off('top_logprobs'));
    expect(outcomes(responses({ include: ['reasoning.encrypted_content', 'message.output_text.logprobs'] }))).to.deep.equal(off('include[1]'));
    expect(outcomes(responses({ include: ['reasoning.encrypted_content'] })).gemini).to.equal('carried');
  });

  it("chat logit_bias, Anthropic's MCP servers and its computer and web fetch tools are a 400 off their own format", () => {
    expect(outcomes(chat({ logit_bias: { '9642': 100 } }))).to.deep.equal({ messages: '400 logit_bias', 'chat-completions': 'carried', responses: '400 logit_bias', gemini: '400 logit_bias' });
    const off = (param: string) => ({ messages: 'carried', 'chat-completions': `400 ${param}`, responses: `400 ${param}`, gemini: `400 ${param}` });
    expect(outcomes(messages({ mcp_servers: [{ type: 'url', url: 'https://mcp.example/sse', name: 'x' }] }))).to.deep.equal(off('mcp_servers'));
    expect(outcomes(messages({ tools: [{ type: 'computer_20250124', name: 'computer', display_width_px: 1024, display_height_px: 768 }] }))).to.deep.equal(off('tools'));
    expect(outcomes(messages({ tools: [{ type: 'web_fetch_20250910', name: 'web_fetch' }] }))).to.deep.equal(off('tools'));
  });

  it('a document by URL that is not a PDF is a 415 for Claude naming the client\'s field (Anthropic fetches PDFs only)', () => {
    const zip = gemini({ contents: [{ role: 'user', parts: [{ text: 'read' }, { fileData: { mimeType: 'application/zip', fileUri: 'https://example.com/files/a.zip' } }] }] });
    let caught: unknown;
    try {
      CODECS.messages.encodeRequest(zip);
    } catch (error) {
      caught = error;
    }
    expect(isGatewayError(caught) && [caught.status, caught.param]).to.deep.equal([415, 'contents[0].parts[1]']);
    const pdf = gemini({ contents: [{ role: 'user', parts: [{ text: 'read' }, { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/files/a.pdf' } }] }] });
    expect(() => CODECS.messages.encodeRequest(pdf)).not.to.throw();
  });

  it('a value of the wrong type for one of these fields is a 400 naming it, never a refusal skipped', () => {
    const param = (decode: () => unknown): unknown => {
      try {
        decode();
      } catch (error) {
        return isGatewayError(error) ? error.param : error;
      }
      return 'decoded';
    };
    expect(param(() => chat({ n: '2' }))).to.match(/^n\b/);
    expect(param(() => chat({ modalities: ['AUDIO'] }))).to.match(/^modalities/);
    expect(param(() => chat({ logit_bias: 'x' }))).to.match(/^logit_bias/);
    expect(param(() => responses({ top_logprobs: '5' }))).to.match(/^top_logprobs/);
    expect(param(() => responses({ text: { verbosity: 5 } }))).to.match(/^text\.verbosity/);
    expect(param(() => messages({ mcp_servers: 'x' }))).to.match(/^mcp_servers/);
    expect(param(() => messages({ thread: 'continue' }))).to.match(/^thread/);
    expect(param(() => messages({ thread: { type: 'CONTINUE' } }))).to.match(/^thread\.type/);
    expect(param(() => gemini({ generationConfig: { responseLogprobs: 'x' } }))).to.match(/responseLogprobs/);
  });

  it('forcing an Anthropic-defined tool the translation has no form for is a 400 off Anthropic; offering it is not', () => {
    const search = { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' };
    expect(outcomes(messages({ tools: [search], tool_choice: { type: 'tool', name: 'tool_search_tool_regex' } }))).to.deep.equal({
      messages: 'carried',
      'chat-completions': '400 tool_choice',
      responses: '400 tool_choice',
      gemini: '400 tool_choice',
    });
    expect(outcomes(messages({ tools: [search] })).gemini).to.equal('carried');
    expect(outcomes(messages({ tools: [{ type: 'bash_20250124', name: 'bash' }], tool_choice: { type: 'tool', name: 'bash' } }))['chat-completions']).to.equal('carried');
  });

  it('forcing a built-in tool is a 400 where the target drops it (chat; Gemini beside functions), and reaches the targets that run it', () => {
    const fn = { name: 'f', input_schema: { type: 'object', properties: {} } };
    const codeForced = messages({ tools: [{ type: 'code_execution_20250825', name: 'code_execution' }], tool_choice: { type: 'tool', name: 'code_execution' } });
    expect(outcomes(codeForced)).to.deep.equal({ messages: 'carried', 'chat-completions': '400 tool_choice', responses: 'carried', gemini: 'carried' });
    const searchBesideFunction = messages({ tools: [{ type: 'web_search_20250305', name: 'web_search' }, fn], tool_choice: { type: 'tool', name: 'web_search' } });
    expect(outcomes(searchBesideFunction)).to.deep.equal({ messages: 'carried', 'chat-completions': '400 tool_choice', responses: 'carried', gemini: '400 tool_choice' });
    const responsesForced = responses({ tools: [{ type: 'web_search' }, { type: 'function', name: 'shell', parameters: { type: 'object' } }], tool_choice: { type: 'web_search' } });
    expect(outcomes(responsesForced)['chat-completions']).to.equal('400 tool_choice');
    expect((CODECS.messages.encodeRequest(responsesForced).value as { tool_choice: unknown }).tool_choice).to.deep.equal({ type: 'tool', name: 'web_search' });
    expect((CODECS.responses.encodeRequest(searchBesideFunction).value as { tool_choice: unknown }).tool_choice).to.deep.equal({ type: 'web_search' });
  });

  it('requiring any tool when built-ins are the only tools is a 400 where the target drops them', () => {
    const codeOnly = messages({ tools: [{ type: 'code_execution_20250825', name: 'code_execution' }], tool_choice: { type: 'any' } });
    expect(outcomes(codeOnly)).to.deep.equal({ messages: 'carried', 'chat-completions': '400 tool_choice', responses: 'carried', gemini: 'carried' });
  });

  it('a Responses client forcing a hosted tool: the built-in it declares, else a 400 (undeclared, or one only OpenAI runs)', () => {
    const decodeParam = (body: Record<string, unknown>): unknown => {
      try {
        responses(body);
        return 'decoded';
      } catch (error) {
        return isGatewayError(error) ? error.param : error;
      }
    };
    const fn = { type: 'function', name: 'lookup', parameters: { type: 'object' } };
    expect(decodeParam({ tools: [fn], tool_choice: { type: 'web_search' } })).to.equal('tool_choice');
    expect(decodeParam({ tools: [fn, { type: 'file_search', vector_store_ids: ['vs_1'] }], tool_choice: { type: 'file_search' } })).to.equal('tools[1]');
    expect(decodeParam({ tools: [fn, { type: 'image_generation' }], tool_choice: { type: 'image_generation' } })).to.equal('tool_choice');
    expect(decodeParam({ tools: [{ type: 'mcp', server_label: 'x', server_url: 'https://mcp.example' }] })).to.equal('tools[0]');
    expect(decodeParam({ tools: [fn, { type: 'web_search' }], tool_choice: { type: 'web_search' } })).to.equal('decoded');
  });
});
