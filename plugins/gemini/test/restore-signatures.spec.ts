import { expect } from 'chai';
import type { UnifiedMessage } from '@gateway/core';
import { restoreSignatures } from '../src/restore-signatures';

const call = (id: string, signature?: string): UnifiedMessage['content'][number] => ({ type: 'tool_call', id, name: 'look', arguments: '{}', ...(signature ? { signature } : {}) });
const result = (id: string): UnifiedMessage => ({ role: 'tool', content: [{ type: 'tool_result', toolCallId: id, content: [{ type: 'text', text: 'ok' }] }] });
const user = (text: string): UnifiedMessage => ({ role: 'user', content: [{ type: 'text', text }] });

function memo(kept: Record<string, string>) {
  const asked: string[][] = [];
  const scopes: string[] = [];
  return {
    asked,
    scopes,
    load: async (calls: ReadonlyArray<{ id: string }>, scope: string) => {
      asked.push(calls.map((call) => call.id));
      scopes.push(scope);
      return new Map(calls.filter((call) => kept[call.id] !== undefined).map((call) => [call.id, kept[call.id]] as [string, string]));
    },
  };
}

describe('restoreSignatures', () => {
  it("signs the current turn's unsigned calls with what was kept, every step of the tool loop", async () => {
    const kept = memo({ toolu_a: 'sig-a', toolu_b: 'sig-b' });
    const messages: UnifiedMessage[] = [
      user('go'),
      { role: 'assistant', content: [{ type: 'text', text: 'looking' }, call('toolu_a')] },
      result('toolu_a'),
      { role: 'assistant', content: [call('toolu_b'), call('toolu_c')] },
      result('toolu_b'),
    ];
    const restored = await restoreSignatures(messages, kept, 'lic-...6789');
    expect(restored[1].content[1]).to.deep.equal(call('toolu_a', 'sig-a'));
    expect(restored[3].content).to.deep.equal([call('toolu_b', 'sig-b'), call('toolu_c')]);
    expect(kept.asked).to.deep.equal([['toolu_a', 'toolu_b', 'toolu_c']]);
    expect(kept.scopes).to.deep.equal(['lic-...6789']);
    // The caller's messages are not changed.
    expect(messages[1].content[1]).to.deep.equal(call('toolu_a'));
  });

  it('keeps a signature the client sent itself and looks nothing up when every call has one', async () => {
    const kept = memo({ toolu_a: 'kept' });
    const messages: UnifiedMessage[] = [user('go'), { role: 'assistant', content: [call('toolu_a', 'own')] }, result('toolu_a')];
    expect(await restoreSignatures(messages, kept, 'lic-...6789')).to.deep.equal(messages);
    expect(kept.asked).to.deep.equal([]);
  });

  it('leaves calls of earlier turns alone: Gemini validates only the current one', async () => {
    const kept = memo({ old: 'sig-old', now: 'sig-now' });
    const messages: UnifiedMessage[] = [
      user('first'),
      { role: 'assistant', content: [call('old')] },
      result('old'),
      { role: 'assistant', content: [{ type: 'text', text: 'It is sunny.' }] },
      user('second'),
      { role: 'assistant', content: [call('now')] },
    ];
    const restored = await restoreSignatures(messages, kept, 'lic-...6789');
    expect(restored[1].content[0]).to.deep.equal(call('old'));
    expect(restored[5].content[0]).to.deep.equal(call('now', 'sig-now'));
    expect(kept.asked).to.deep.equal([['now']]);
  });

  it('counts text sent beside tool results (one user content for Gemini) as part of the current turn', async () => {
    const kept = memo({ a: 'sig-a', b: 'sig-b' });
    // Claude Code's tool_result + <system-reminder> text: the decoder splits it into a tool and a user message.
    const messages: UnifiedMessage[] = [user('go'), { role: 'assistant', content: [call('a')] }, result('a'), user('<system-reminder>'), { role: 'assistant', content: [call('b')] }, result('b'), user('note')];
    const restored = await restoreSignatures(messages, kept, 'lic-...6789');
    expect(restored[1].content[0]).to.deep.equal(call('a', 'sig-a'));
    expect(restored[4].content[0]).to.deep.equal(call('b', 'sig-b'));
  });

  it('counts a user turn of tool results only as part of the current turn', async () => {
    const kept = memo({ a: 'sig-a' });
    const messages: UnifiedMessage[] = [user('go'), { role: 'assistant', content: [call('a')] }, { role: 'user', content: [{ type: 'tool_result', toolCallId: 'a', content: [] }] }];
    expect((await restoreSignatures(messages, kept, 'lic-...6789'))[1].content[0]).to.deep.equal(call('a', 'sig-a'));
  });
});
