import { expect } from 'chai';
import type { UnifiedResponse, UnifiedStreamEvent } from '@gateway/core';
import { createSignatureCaptureStage } from '../src/create-signature-capture-stage';
import type { SignedCall } from '../src/signature-memo';

describe('createSignatureCaptureStage', () => {
  it("stream: saves each signed call with its whole arguments once the answer finishes, passing every event unchanged", () => {
    const saved: Array<[SignedCall, string]> = [];
    const stage = createSignatureCaptureStage(async (call, signature) => void saved.push([call, signature]));
    const events: UnifiedStreamEvent[] = [
      { type: 'start', id: 'r1', model: 'gemini-3-pro-preview', created: 1 },
      { type: 'reasoning_signature', signature: 'text-part-signature' },
      { type: 'tool_call_start', index: 0, id: 'call_ab12cd34_0', name: 'look', signature: 'sig-0' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool_call_start', index: 1, id: 'call_ab12cd34_1', name: 'look' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"Paris"}' },
    ];
    for (const event of events) expect(stage.event!(event)).to.deep.equal([event]);
    expect(saved).to.deep.equal([]);
    const finish: UnifiedStreamEvent = { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } };
    expect(stage.event!(finish)).to.deep.equal([finish]);
    // Only function calls' signatures (those Gemini validates), each once.
    expect(saved).to.deep.equal([[{ id: 'call_ab12cd34_0', name: 'look', arguments: '{"city":"Paris"}' }, 'sig-0']]);
    expect(stage.end!()).to.deep.equal([]);
    expect(saved).to.have.length(1);
  });

  it('stream without a finish event: the saves happen at its end', () => {
    const saved: string[] = [];
    const stage = createSignatureCaptureStage(async (call, signature) => void saved.push(`${call.id}=${signature}`));
    stage.event!({ type: 'tool_call_start', index: 0, id: 'call_1', name: 'look', signature: 'sig-1' });
    expect(stage.end!()).to.deep.equal([]);
    expect(saved).to.deep.equal(['call_1=sig-1']);
  });

  it('non-stream: saves the signed calls and answers once the saves have settled', async () => {
    const saved: string[] = [];
    let settle!: () => void;
    const pending = new Promise<void>((resolve) => (settle = resolve));
    const stage = createSignatureCaptureStage(async (call, signature) => {
      await pending;
      saved.push(`${call.id}:${call.name}:${call.arguments}=${signature}`);
    });
    const response = {
      id: 'r1',
      model: 'gemini-3-pro-preview',
      created: 1,
      content: [
        { type: 'reasoning', text: '', signature: 'text-sig', provider: 'gemini' },
        { type: 'tool_call', id: 'call_1', name: 'look', arguments: '{"city":"Paris"}', signature: 'sig-1' },
        { type: 'tool_call', id: 'call_2', name: 'look', arguments: '{}' },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    } as UnifiedResponse;
    let answered = false;
    const answer = Promise.resolve(stage.response!(response)).then((value) => {
      answered = true;
      return value;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).to.equal(false);
    settle();
    expect(await answer).to.equal(response);
    expect(saved).to.deep.equal(['call_1:look:{"city":"Paris"}=sig-1']);
  });
});
