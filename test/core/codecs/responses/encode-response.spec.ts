import { expect } from 'chai';
import { decodeResponsesRequest } from '../../../../core/codecs/responses/decode-request';
import { decodeResponsesResponse } from '../../../../core/codecs/responses/decode-response';
import { encodeResponsesResponse } from '../../../../core/codecs/responses/encode-response';
import { messagesCodec } from '../../../../core/codecs/messages';
import { responsesCodec } from '../../../../core/codecs/responses';
import type { UnifiedResponse } from '../../../../core/unified/unified-response';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';
import { fixtureJson } from '../../../helpers/fixtures';

function response(extra: Partial<UnifiedResponse>): UnifiedResponse {
  return { id: 'msg_01abc', model: 'claude-x', created: 1700000000, content: [], finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, ...extra };
}

describe('encodeResponsesResponse', () => {
  it('round-trips response-basic: same id, status, output and usage as the fixture', () => {
    const fixture = fixtureJson<Record<string, unknown>>('openai-responses/response-basic.json');
    const request = decodeResponsesRequest(fixtureJson('openai-responses/request-basic.json'));
    const body = encodeResponsesResponse(decodeResponsesResponse(fixture), request);
    expect(body).to.include({ id: fixture.id, object: 'response', created_at: 1757935300, status: 'completed', model: 'gpt-4.1-mini-2025-04-14' });
    expect(body.instructions).to.equal('You are a concise assistant.');
    expect(body.max_output_tokens).to.equal(64);
    expect(body.output).to.have.length(1);
    expect(body.output[0]).to.deep.include({ type: 'message', status: 'completed', role: 'assistant' });
    expect(body.output[0].type === 'message' && body.output[0].content).to.deep.equal([{ type: 'output_text', annotations: [], logprobs: [], text: 'Hello, nice to meet you!' }]);
    expect(body.usage).to.deep.equal({ input_tokens: 21, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 8, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 29 });
    expect(body.incomplete_details).to.equal(null);
  });

  it('marks the last item of an answer the token limit cut incomplete, as OpenAI does; a whole answer keeps completed items', () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'q' });
    const cut = encodeResponsesResponse(response({ content: [{ type: 'text', text: 'Once upon' }], finishReason: 'length' }), request);
    expect(cut.status).to.equal('incomplete');
    expect(cut.output.map((item) => ('status' in item ? item.status : undefined))).to.deep.equal(['incomplete']);
    const whole = encodeResponsesResponse(response({ content: [{ type: 'text', text: 'Done.' }] }), request);
    expect(whole.output.map((item) => ('status' in item ? item.status : undefined))).to.deep.equal(['completed']);
  });

  it('echoes an allowed_tools choice as sent, though the upstream gets a plain one over the allowed tools', () => {
    const choice = { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'b' }] };
    const fn = (name: string) => ({ type: 'function', name, parameters: { type: 'object', properties: {} } });
    const request = decodeResponsesRequest({ model: 'm', input: 'q', tools: [fn('a'), fn('b')], tool_choice: choice });
    expect(request.tools?.map((tool) => tool.name)).to.deep.equal(['b']);
    expect(encodeResponsesResponse(response({}), request).tool_choice).to.deep.equal(choice);
    expect(responsesCodec.encodeRequest(request).value).to.include({ tool_choice: 'required' });
  });

  it("takes safety_identifier as the end-user id (Claude's metadata.user_id) when user is not given; a Responses upstream gets it back as it came", () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'q', safety_identifier: 'sid-123' });
    expect(request.user).to.equal('sid-123');
    expect(messagesCodec.encodeRequest({ ...request, maxTokens: 10 }).value.metadata).to.deep.equal({ user_id: 'sid-123' });
    const upstream = responsesCodec.encodeRequest(request).value;
    expect(upstream).to.include({ safety_identifier: 'sid-123' });
    expect(upstream).not.to.have.property('user');
    expect(encodeResponsesResponse(response({}), request).user).to.equal(null);
  });

  it('echoes instructions as sent, though leading developer messages joined them as system text (sent so to a Responses upstream)', () => {
    const developer = { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Use tabs.' }] };
    const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] };
    const request = decodeResponsesRequest({ model: 'm', instructions: 'Be brief.', input: [developer, user] });
    expect(request.system).to.deep.equal(['Be brief.', 'Use tabs.']);
    expect(encodeResponsesResponse(response({}), request).instructions).to.equal('Be brief.');
    expect(responsesCodec.encodeRequest(request).value).to.include({ instructions: 'Be brief.\n\nUse tabs.' });
    expect(encodeResponsesResponse(response({}), decodeResponsesRequest({ model: 'm', input: [developer, user] })).instructions).to.equal(null);
    expect(encodeResponsesResponse(response({}), decodeResponsesRequest({ model: 'm', instructions: 'Be brief.', input: [user] })).instructions).to.equal('Be brief.');
  });

  it('echoes a forced hosted tool as the client forced it ({type: "web_search"}), not as a function', () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'news', tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search' } });
    expect(encodeResponsesResponse(response({}), request).tool_choice).to.deep.equal({ type: 'web_search' });
  });

  it('orders reasoning, message and function_call items; fc_ ids come from call ids; foreign signatures stay out', () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'q', tools: [{ type: 'namespace', name: 'ns', tools: [{ type: 'function', name: 'g' }] }, { type: 'function', name: 'f' }] });
    const body = encodeResponsesResponse(
      response({
        content: [
          { type: 'reasoning', text: 'thinking', signature: 'anthropic-sig', provider: 'messages' },
          { type: 'text', text: 'I will call.' },
          { type: 'tool_call', id: 'toolu_01', name: 'f', arguments: '{"a":1}' },
          { type: 'tool_call', id: 'call_2', name: 'g', arguments: '{}' },
        ],
        finishReason: 'tool_calls',
      }),
      request,
    );
    expect(body.id).to.equal('resp_01abc');
    expect(body.output).to.deep.equal([
      { id: 'rs_01abc_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }] },
      { id: 'msg_01abc_1', type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'I will call.' }], role: 'assistant' },
      { id: 'fc_01', type: 'function_call', status: 'completed', arguments: '{"a":1}', call_id: 'toolu_01', name: 'f' },
      { id: 'fc_2', type: 'function_call', status: 'completed', arguments: '{}', call_id: 'call_2', name: 'g', namespace: 'ns' },
    ]);
    expect(body.status).to.equal('completed');
  });

  it('gives a freeform tool\'s call back as a custom_tool_call with its input unwrapped; arguments of another shape go as they are', () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'q', tools: [{ type: 'custom', name: 'apply_patch' }, { type: 'function', name: 'shell' }] });
    const body = encodeResponsesResponse(
      response({
        content: [
          { type: 'tool_call', id: 'toolu_01', name: 'apply_patch', arguments: '{"input":"*** Begin Patch\\n*** End Patch"}' },
          { type: 'tool_call', id: 'toolu_02', name: 'shell', arguments: '{"command":["ls"]}' },
          { type: 'tool_call', id: 'toolu_03', name: 'apply_patch', arguments: 'not json' },
        ],
        finishReason: 'tool_calls',
      }),
      request,
    );
    expect(body.output).to.deep.equal([
      { id: 'ctc_01', type: 'custom_tool_call', call_id: 'toolu_01', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
      { id: 'fc_02', type: 'function_call', status: 'completed', arguments: '{"command":["ls"]}', call_id: 'toolu_02', name: 'shell' },
      { id: 'ctc_03', type: 'custom_tool_call', call_id: 'toolu_03', name: 'apply_patch', input: 'not json' },
    ]);
    // The response's own tool list shows the tool as the client declared it.
    expect(body.tools).to.deep.equal([{ type: 'custom', name: 'apply_patch' }, { type: 'function', name: 'shell', parameters: { type: 'object', properties: {} }, strict: false }]);
  });

  it('a custom tool inside a namespace: a function upstream, its call back as a custom_tool_call under its namespace; a forced custom tool echoed as custom', () => {
    const request = decodeResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'edit it' },
        { type: 'custom_tool_call', call_id: 'call_0', name: 'apply_patch', namespace: 'editor', input: 'old' },
        { type: 'custom_tool_call_output', call_id: 'call_0', output: 'ok' },
      ],
      tools: [{ type: 'namespace', name: 'editor', description: 'file editing', tools: [{ type: 'custom', name: 'apply_patch', format: { type: 'text' } }] }],
      tool_choice: { type: 'custom', name: 'apply_patch' },
    });
    expect(request.tools).to.have.length(1);
    expect(request.tools?.[0]).to.deep.include({ name: 'apply_patch', namespace: 'editor', freeform: { format: { type: 'text' } } });
    expect(request.messages[1].content).to.deep.equal([{ type: 'tool_call', id: 'call_0', name: 'apply_patch', arguments: '{"input":"old"}' }]);
    const body = encodeResponsesResponse(response({ content: [{ type: 'tool_call', id: 'toolu_9', name: 'apply_patch', arguments: '{"input":"new"}' }], finishReason: 'tool_calls' }), request);
    expect(body.output).to.deep.equal([{ id: 'ctc_9', type: 'custom_tool_call', call_id: 'toolu_9', name: 'apply_patch', input: 'new', namespace: 'editor' }]);
    expect(body.tool_choice).to.deep.equal({ type: 'custom', name: 'apply_patch' });
    expect(body.tools).to.deep.equal([{ type: 'namespace', name: 'editor', description: 'file editing', tools: [{ type: 'custom', name: 'apply_patch', format: { type: 'text' } }] }]);
  });

  it('echoes truncation and prompt_cache_key as the client sent them, and the tier it was served at (the fixture shape otherwise)', () => {
    const sent = encodeResponsesResponse(response({ content: [{ type: 'text', text: 'x' }] }), decodeResponsesRequest({ model: 'm', input: 'q', truncation: 'auto', prompt_cache_key: 'codex-session-1', service_tier: 'flex' }));
    expect(sent).to.include({ truncation: 'auto', prompt_cache_key: 'codex-session-1', service_tier: 'default' });
    const plain = encodeResponsesResponse(response({ content: [{ type: 'text', text: 'x' }] }), decodeResponsesRequest({ model: 'm', input: 'q' }));
    expect(plain).to.include({ truncation: 'disabled', prompt_cache_key: null, service_tier: 'default' });
  });

  it('echoes reasoning effort as the client wrote it, none (thinking off) included', () => {
    const off = encodeResponsesResponse(response({ content: [{ type: 'text', text: 'x' }] }), decodeResponsesRequest({ model: 'm', input: 'q', reasoning: { effort: 'none' } }));
    expect(off.reasoning).to.deep.equal({ effort: 'none', summary: null });
    const high = encodeResponsesResponse(response({ content: [{ type: 'text', text: 'x' }] }), decodeResponsesRequest({ model: 'm', input: 'q', reasoning: { effort: 'high', summary: 'auto' } }));
    expect(high.reasoning).to.deep.equal({ effort: 'high', summary: 'auto' });
  });

  it('two namespaces with a function of one name: unique names upstream, each call back under its own namespace', () => {
    const search = { type: 'function', name: 'search', parameters: { type: 'object' } };
    const request = decodeResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'q' },
        // A call replayed by Codex names the member and its namespace.
        { type: 'function_call', call_id: 'call_0', name: 'search', namespace: 'mcp__jira__', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_0', output: 'none' },
      ],
      tools: [
        { type: 'namespace', name: 'mcp__github__', tools: [search] },
        { type: 'namespace', name: 'mcp__jira__', tools: [search] },
        { type: 'function', name: 'shell', parameters: { type: 'object' } },
      ],
    });
    expect(request.tools?.map((tool) => tool.name)).to.deep.equal(['mcp__github__search', 'mcp__jira__search', 'shell']);
    expect(request.messages[1].content).to.deep.include({ type: 'tool_call', id: 'call_0', name: 'mcp__jira__search', arguments: '{}' });
    // Upstream tool names (Anthropic refuses duplicates).
    const claude = messagesCodec.encodeRequest(request).value as { tools: Array<{ name: string }> };
    expect(claude.tools.map((tool) => tool.name)).to.deep.equal(['mcp__github__search', 'mcp__jira__search', 'shell']);
    const answer = response({ content: [{ type: 'tool_call', id: 'toolu_1', name: 'mcp__jira__search', arguments: '{"q":"x"}' }], finishReason: 'tool_calls' });
    expect(encodeResponsesResponse(answer, request).output).to.deep.equal([
      { id: 'fc_1', type: 'function_call', status: 'completed', arguments: '{"q":"x"}', call_id: 'toolu_1', name: 'search', namespace: 'mcp__jira__' },
    ]);
    const events = [
      { type: 'start', id: 'resp_1', model: 'm', created: 1 },
      { type: 'tool_call_start', index: 0, id: 'toolu_1', name: 'mcp__github__search' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
      { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ] as UnifiedStreamEvent[];
    const encoder = responsesCodec.createStreamEncoder(request);
    const added = events.flatMap((event) => encoder.push(event)).map((event) => JSON.parse(event.data) as { type: string; item?: unknown });
    expect(added.find((event) => event.type === 'response.output_item.done')?.item).to.deep.include({ name: 'search', namespace: 'mcp__github__' });
    // A forced function named as Codex knows it: the one member, or any of those of that name.
    const forced = (choice: unknown, tools: unknown[]) => decodeResponsesRequest({ model: 'm', input: 'q', tools, tool_choice: choice });
    const namespaces = [{ type: 'namespace', name: 'mcp__github__', tools: [search] }, { type: 'namespace', name: 'mcp__jira__', tools: [search] }];
    const both = forced({ type: 'function', name: 'search' }, namespaces);
    expect([both.toolChoice, both.tools?.map((tool) => tool.name)]).to.deep.equal(['required', ['mcp__github__search', 'mcp__jira__search']]);
    const one = forced({ type: 'function', name: 'shell' }, [...namespaces, { type: 'function', name: 'shell' }]);
    expect(one.toolChoice).to.deep.equal({ name: 'shell' });
    // Qualified names stay within the 64 characters Anthropic and OpenAI take, and apart.
    const long = { type: 'function', name: 'search_documents_in_the_knowledge_base', parameters: { type: 'object' } };
    const servers = ['mcp__knowledge_base_server_alpha_production__', 'mcp__knowledge_base_server_beta_production__'];
    const longNames = decodeResponsesRequest({ model: 'm', input: 'q', tools: servers.map((name) => ({ type: 'namespace', name, tools: [long] })) }).tools!.map((tool) => tool.name);
    expect(longNames.every((name) => name.length <= 64 && /^[A-Za-z0-9_-]+$/.test(name)), longNames.join()).to.equal(true);
    expect(new Set(longNames).size).to.equal(2);
    // A name no other tool has stays as it was.
    const single = decodeResponsesRequest({ model: 'm', input: 'q', tools: [{ type: 'namespace', name: 'mcp__github__', tools: [search] }] });
    expect(single.tools?.map((tool) => [tool.name, tool.namespace])).to.deep.equal([['search', 'mcp__github__']]);
  });

  it('keeps responses reasoning ids and encrypted content', () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'q' });
    const body = encodeResponsesResponse(response({ content: [{ type: 'reasoning', text: '', redactedData: 'ENC', id: 'rs_keep', provider: 'responses' }] }), request);
    expect(body.output).to.deep.equal([{ id: 'rs_keep', type: 'reasoning', summary: [], encrypted_content: 'ENC' }]);
  });

  it('reports length and content_filter as incomplete with the reason', () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'q' });
    const length = encodeResponsesResponse(response({ finishReason: 'length' }), request);
    expect(length.status).to.equal('incomplete');
    expect(length.incomplete_details).to.deep.equal({ reason: 'max_output_tokens' });
    expect(encodeResponsesResponse(response({ finishReason: 'content_filter' }), request).incomplete_details).to.deep.equal({ reason: 'content_filter' });
  });

  it('renders generated images as output_text markdown', () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'draw' });
    const body = encodeResponsesResponse(response({ content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'PNG' } }] }), request);
    expect(body.output[0].type === 'message' && body.output[0].content[0]).to.deep.include({ type: 'output_text', text: '![image](data:image/png;base64,PNG)' });
  });

  it('gives a refusal as a refusal part, as the Responses API does', () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'x' });
    const body = encodeResponsesResponse(response({ content: [{ type: 'text', text: "I can't help with that.", refusal: true }] }), request);
    expect(body.output).to.have.length(1);
    expect(body.output[0].type === 'message' && body.output[0].content).to.deep.equal([{ type: 'refusal', refusal: "I can't help with that." }]);
  });
});
