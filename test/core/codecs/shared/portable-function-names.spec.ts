import { expect } from 'chai';
import { geminiCodec } from '../../../../core/codecs/gemini';
import { portableFunctionNames } from '../../../../core/codecs/shared/portable-function-names';
import { messagesCodec } from '../../../../core/codecs/messages';
import type { UnifiedStreamEvent } from '../../../../core/unified/unified-stream-event';

describe('portableFunctionNames', () => {
  it('renames only what Anthropic and OpenAI refuse, to unique names; a long one is cut with a hash of it', () => {
    const renames = portableFunctionNames(['ok_name-1', 'files.read', 'files_read', 'mcp:search', 'x'.repeat(70), 'x'.repeat(71), 'y'.repeat(64)]);
    expect([...renames.keys()]).to.deep.equal(['files.read', 'mcp:search', 'x'.repeat(70), 'x'.repeat(71)]);
    expect(renames.get('files.read')).to.equal('files_read_2');
    expect(renames.get('mcp:search')).to.equal('mcp_search');
    const long = [renames.get('x'.repeat(70)), renames.get('x'.repeat(71))];
    for (const name of long) expect(name).to.match(/^x{55}_[0-9a-f]{8}$/);
    expect(long[0]).not.to.equal(long[1]);
  });
});

describe('Gemini function names other upstreams refuse (files.read, mcp:search)', () => {
  const request = geminiCodec.decodeRequest(
    {
      contents: [
        { role: 'user', parts: [{ text: 'read it' }] },
        { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'files.read', args: { path: 'a' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'files.read', response: { output: 'x' } } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'files.read', parameters: { type: 'OBJECT', properties: {} } }, { name: 'mcp:search' }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['mcp:search'] } },
    },
    { model: 'claude-sonnet-4-5', stream: false },
  );

  it('go upstream portable: declarations, forced choice, calls and results', () => {
    const body = messagesCodec.encodeRequest(request).value as Record<string, unknown>;
    expect((body.tools as Array<{ name: string }>).map((tool) => tool.name)).to.deep.equal(['mcp_search']);
    expect(body.tool_choice).to.deep.include({ type: 'tool', name: 'mcp_search' });
    expect(JSON.stringify(body.messages)).to.include('"name":"files_read"').and.not.include('files.read');
  });

  it('come back to the client as it named them, whole and streamed', () => {
    const answer = geminiCodec.encodeResponse(
      { id: 'r', model: 'm', created: 0, content: [{ type: 'tool_call', id: 'toolu_1', name: 'mcp_search', arguments: '{"q":"x"}' }], finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
      request,
    ) as { candidates: Array<{ content: { parts: Array<{ functionCall?: { name: string } }> } }> };
    expect(answer.candidates[0].content.parts[0].functionCall?.name).to.equal('mcp:search');
    const encoder = geminiCodec.createStreamEncoder({ ...request, stream: true });
    const events: UnifiedStreamEvent[] = [
      { type: 'start', id: 'r', model: 'm', created: 0 },
      { type: 'tool_call_start', index: 0, id: 'toolu_1', name: 'files_read' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
      { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ];
    const wire = events.flatMap((event) => encoder.push(event)).map((event) => event.data).join('\n');
    expect(wire).to.include('"name":"files.read"').and.not.include('files_read');
  });
});
