import { expect } from 'chai';
import type { UnifiedResponse, UnifiedStreamEvent } from '@gateway/core';
import { createThinkingCaptureStage } from '../src/create-thinking-capture-stage';
import type { StoredThinking } from '../src/thinking-store';

function capture() {
  const saved: Array<[string, StoredThinking]> = [];
  const stage = createThinkingCaptureStage(async (id, thinking) => void saved.push([id, thinking]));
  return { saved, stage };
}

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

describe('createThinkingCaptureStage', () => {
  it('stream: saves the signed blocks before each tool call under that call’s id, passing events unchanged', () => {
    const { saved, stage } = capture();
    const events: UnifiedStreamEvent[] = [
      { type: 'start', id: 'msg', model: 'm', created: 0 },
      { type: 'reasoning_delta', text: 'think ' },
      { type: 'reasoning_delta', text: 'hard' },
      { type: 'reasoning_signature', signature: 'S1' },
      { type: 'redacted_reasoning', data: 'R1' },
      { type: 'text_delta', text: 'Let me check.' },
      { type: 'tool_call_start', index: 0, id: 'toolu_a', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
      { type: 'reasoning_delta', text: 'more' },
      { type: 'reasoning_signature', signature: 'S2' },
      { type: 'tool_call_start', index: 1, id: 'toolu_b', name: 'f' },
      { type: 'tool_call_start', index: 2, id: 'toolu_c', name: 'f' },
      { type: 'finish', finishReason: 'tool_calls', usage },
    ];
    const out = events.flatMap((event) => stage.event!(event));
    expect(out).to.deep.equal(events);
    expect(saved).to.deep.equal([
      ['toolu_a', { blocks: [{ text: 'think hard', signature: 'S1' }, { text: '', redactedData: 'R1' }], leading: true }],
      ['toolu_b', { blocks: [{ text: 'more', signature: 'S2' }], leading: false }],
    ]);
  });

  it('keeps no block whose thinking passes 32 MB (an upstream thinking without end was kept whole); the next is kept', () => {
    const { saved, stage } = capture();
    const megabyte = 'm'.repeat(1024 * 1024);
    const events: UnifiedStreamEvent[] = [
      { type: 'start', id: 'msg', model: 'm', created: 0 },
      ...Array.from({ length: 33 }, (): UnifiedStreamEvent => ({ type: 'reasoning_delta', text: megabyte })),
      { type: 'reasoning_signature', signature: 'S1' },
      { type: 'reasoning_delta', text: 'short' },
      { type: 'reasoning_signature', signature: 'S2' },
      { type: 'tool_call_start', index: 0, id: 'toolu_a', name: 'f' },
    ];
    for (const event of events) stage.event!(event);
    expect(saved).to.deep.equal([['toolu_a', { blocks: [{ text: 'short', signature: 'S2' }], leading: true }]]);
  });

  it('marks a block that followed text (thinking, text, thinking, call), so it goes back after that text', () => {
    const { saved, stage } = capture();
    const events: UnifiedStreamEvent[] = [
      { type: 'start', id: 'msg', model: 'm', created: 0 },
      { type: 'reasoning_delta', text: 'A' },
      { type: 'reasoning_signature', signature: 'SA' },
      { type: 'text_delta', text: 'Between. ' },
      { type: 'reasoning_delta', text: 'B' },
      { type: 'reasoning_signature', signature: 'SB' },
      { type: 'tool_call_start', index: 0, id: 'toolu_a', name: 'f' },
      { type: 'finish', finishReason: 'tool_calls', usage },
    ];
    events.forEach((event) => stage.event!(event));
    expect(saved).to.deep.equal([['toolu_a', { blocks: [{ text: 'A', signature: 'SA' }, { text: 'B', signature: 'SB', afterText: true }], leading: true }]]);
  });

  it('stream: unsigned thinking (nothing to verify) is not kept', () => {
    const { saved, stage } = capture();
    for (const event of [{ type: 'reasoning_delta', text: 'no signature' }, { type: 'tool_call_start', index: 0, id: 'toolu_a', name: 'f' }] as UnifiedStreamEvent[]) stage.event!(event);
    expect(saved).to.deep.equal([]);
  });

  it('non-stream: keeps Messages-signed reasoning only, and waits for the save', async () => {
    const { saved, stage } = capture();
    const response: UnifiedResponse = {
      id: 'msg', model: 'm', created: 0, finishReason: 'tool_calls', usage,
      content: [
        { type: 'text', text: 'First, ' },
        { type: 'reasoning', text: 'why', signature: 'S1', provider: 'messages' },
        { type: 'reasoning', text: 'foreign', signature: 'G', provider: 'gemini' },
        { type: 'tool_call', id: 'toolu_a', name: 'f', arguments: '{}' },
      ],
    };
    expect(await stage.response!(response)).to.equal(response);
    expect(saved).to.deep.equal([['toolu_a', { blocks: [{ text: 'why', signature: 'S1' }], leading: false }]]);
  });
});
