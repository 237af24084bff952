import { expect } from 'chai';
import type { UnifiedResponse, UnifiedStreamEvent } from '@gateway/core';
import { createSignatureCaptureStage } from '../src/create-signature-capture-stage';

describe('createSignatureCaptureStage', () => {
  it("stream: saves each call's signature under its id, passing every event unchanged", () => {
    const saved: Array<[string, string]> = [];
    const stage = createSignatureCaptureStage(async (id, signature) => void saved.push([id, signature]));
    const events: UnifiedStreamEvent[] = [
      { type: 'start', id: 'r1', model: 'gemini-3-pro-preview', created: 1 },
      { type: 'reasoning_signature', signature: 'text-part-signature' },
      { type: 'tool_call_start', index: 0, id: 'call_ab12cd34_0', name: 'look', signature: 'sig-0' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool_call_start', index: 1, id: 'call_ab12cd34_1', name: 'look' },
    ];
    for (const event of events) expect(stage.event!(event)).to.deep.equal([event]);
    // Only function calls' signatures: those are the ones Gemini validates.
    expect(saved).to.deep.equal([['call_ab12cd34_0', 'sig-0']]);
  });

  it('non-stream: saves the signed calls and answers once the saves have settled', async () => {
    const saved: string[] = [];
    let settle!: () => void;
    const pending = new Promise<void>((resolve) => (settle = resolve));
    const stage = createSignatureCaptureStage(async (id, signature) => {
      await pending;
      saved.push(`${id}=${signature}`);
    });
    const response: UnifiedResponse = {
      id: 'r1',
      model: 'gemini-3-pro-preview',
      created: 1,
      content: [
        { type: 'reasoning', text: '', signature: 'text-sig', provider: 'gemini' },
        { type: 'tool_call', id: 'call_1', name: 'look', arguments: '{}', signature: 'sig-1' },
        { type: 'tool_call', id: 'call_2', name: 'look', arguments: '{}' },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 1, outputTokens: 1 },
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
    expect(saved).to.deep.equal(['call_1=sig-1']);
  });
});
