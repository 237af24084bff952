import { expect } from 'chai';
import type { UnifiedMessage } from '@gateway/core';
import { restoreThinking, toolCallIdsWithoutThinking } from '../src/restore-thinking';
import type { StoredThinking } from '../src/thinking-store';

const call = (id: string) => ({ type: 'tool_call' as const, id, name: 'f', arguments: '{}' });
const signed = (signature: string) => ({ type: 'reasoning' as const, text: 't', signature, provider: 'messages' as const });

describe('restoreThinking', () => {
  const stored = new Map<string, StoredThinking>([
    ['lead', { blocks: [{ text: 'first', signature: 'S1' }, { text: '', redactedData: 'R1' }], leading: true }],
    ['mid', { blocks: [{ text: 'second', signature: 'S2' }], leading: false }],
  ]);

  it('puts leading thinking at the head of the message, before its text', () => {
    const messages: UnifiedMessage[] = [{ role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, call('lead')] }];
    expect(restoreThinking(messages, stored)[0].content).to.deep.equal([
      { type: 'reasoning', text: 'first', signature: 'S1', provider: 'messages' },
      { type: 'reasoning', text: '', redactedData: 'R1', provider: 'messages' },
      { type: 'text', text: 'Let me look.' },
      call('lead'),
    ]);
  });

  it('puts each block back where it was when text came between them, across the messages a Responses client split the answer into', () => {
    // Codex sends the answer [thinking A, text, thinking B, call] back as items: reasoning, message, reasoning, call.
    const between = new Map<string, StoredThinking>([['c', { blocks: [{ text: 'A', signature: 'SA' }, { text: 'B', signature: 'SB', afterText: true }], leading: true }]]);
    const messages: UnifiedMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'summary A', provider: 'responses' }, { type: 'text', text: 'Between. ' }] },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'summary B', provider: 'responses' }, call('c')] },
    ];
    const restored = restoreThinking(messages, between).slice(1).flatMap((message) => message.content);
    expect(restored.map((p) => (p.type === 'reasoning' ? p.signature ?? p.text : p.type))).to.deep.equal(['SA', 'summary A', 'text', 'summary B', 'SB', 'tool_call']);
  });

  it('puts interleaved thinking right before the tool call it preceded', () => {
    const messages: UnifiedMessage[] = [{ role: 'assistant', content: [call('lead'), { type: 'text', text: 'then' }, call('mid')] }];
    expect(restoreThinking(messages, stored)[0].content.map((p) => (p.type === 'reasoning' ? p.signature ?? p.redactedData : p.type))).to.deep.equal([
      'S1', 'R1', 'tool_call', 'text', 'S2', 'tool_call',
    ]);
  });

  it('leaves a message that already carries signed Messages thinking, and other roles, alone', () => {
    const messages: UnifiedMessage[] = [
      { role: 'assistant', content: [signed('OWN'), call('lead')] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'lead', content: [] }] },
    ];
    expect(restoreThinking(messages, stored)).to.deep.equal(messages);
    expect(toolCallIdsWithoutThinking(messages)).to.deep.equal([]);
  });

  it('does replace reasoning another provider signed (it cannot be replayed to Anthropic)', () => {
    const messages: UnifiedMessage[] = [{ role: 'assistant', content: [{ type: 'reasoning', text: '', signature: 'S1', provider: 'gemini' }, call('mid')] }];
    expect(toolCallIdsWithoutThinking(messages)).to.deep.equal(['mid']);
    expect(restoreThinking(messages, stored)[0].content).to.have.length(3);
  });
});
