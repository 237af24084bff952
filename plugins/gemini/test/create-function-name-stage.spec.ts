import { expect } from 'chai';
import { geminiCodec, type UnifiedRequest, type UnifiedResponse, type UnifiedStreamEvent } from '@gateway/core';
import { createFunctionNameStage, keepRenamedFunctions } from '../src/create-function-name-stage';

const request = (...names: string[]): UnifiedRequest => ({
  model: 'gemini-2.5-flash',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
  tools: names.map((name) => ({ name, parameters: { type: 'object' } })),
  stream: false,
});

/** The stage for the answer to `names`, as the platform assembles it after its request transform. */
function stageFor(...names: string[]) {
  const ctx = { state: new Map<string, unknown>() };
  keepRenamedFunctions(ctx, geminiCodec.requestFunctionNames(request(...names)));
  return createFunctionNameStage(ctx);
}

describe('createFunctionNameStage', () => {
  it('stream: gives each call the name the request declared, passing other events unchanged', () => {
    const stage = stageFor('2fa_code', 'get_weather');
    const events: UnifiedStreamEvent[] = [
      { type: 'start', id: 'r1', model: 'gemini-2.5-flash', created: 1 },
      { type: 'tool_call_start', index: 0, id: 'c0', name: '_2fa_code', signature: 's' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool_call_start', index: 1, id: 'c1', name: 'get_weather' },
    ];
    expect(events.flatMap((event) => stage!.event!(event))).to.deep.equal([events[0], { ...events[1], name: '2fa_code' }, events[2], events[3]]);
  });

  it('whole answer: renames its calls back', async () => {
    const response: UnifiedResponse = {
      id: 'r1',
      model: 'gemini-2.5-flash',
      created: 1,
      content: [
        { type: 'text', text: 'ok' },
        { type: 'tool_call', id: 'c0', name: '_2fa_code', arguments: '{}' },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    };
    const named = await stageFor('2fa_code')!.response!(response);
    expect(named.content).to.deep.equal([response.content[0], { type: 'tool_call', id: 'c0', name: '2fa_code', arguments: '{}' }]);
  });

  it('is none when the encoder kept every name', () => {
    expect(stageFor('get_weather')).to.equal(undefined);
  });
});
