import { expect } from 'chai';
import type { UnifiedMessage } from '@gateway/core';
import { restoreSignatures } from '../src/restore-signatures';

const call = (id: string, signature?: string): UnifiedMessage['content'][number] => ({ type: 'tool_call', id, name: 'look', arguments: '{}', ...(signature ? { signature } : {}) });
const result = (id: string): UnifiedMessage => ({ role: 'tool', content: [{ type: 'tool_result', toolCallId: id, content: [{ type: 'text', text: 'ok' }] }] });
const user = (text: string): UnifiedMessage => ({ role: 'user', content: [{ type: 'text', text }] });

function memo(kept: Record<string, string>) {
  const asked: string[][] = [];
  return {
    asked,
    load: async (ids: readonly string[]) => {
      asked.push([...ids]);
      return new Map(ids.filter((id) => kept[id] !== undefined).map((id) => [id, kept[id]] as [string, string]));
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
    const restored = await restoreSignatures(messages, kept);
    expect(restored[1].content[1]).to.deep.equal(call('toolu_a', 'sig-a'));
    expect(restored[3].content).to.deep.equal([call('toolu_b', 'sig-b'), call('toolu_c')]);
    expect(kept.asked).to.deep.equal([['toolu_a', 'toolu_b', 'toolu_c']]);
    // The caller's messages are not changed.
    expect(messages[1].content[1]).to.deep.equal(call('toolu_a'));
  });

  it('keeps a signature the client sent itself and looks nothing up when every call has one', async () => {
    const kept = memo({ toolu_a: 'kept' });
    const messages: UnifiedMessage[] = [user('go'), { role: 'assistant', content: [call('toolu_a', 'own')] }, result('toolu_a')];
    expect(await restoreSignatures(messages, kept)).to.deep.equal(messages);
    expect(kept.asked).to.deep.equal([]);
  });

  it('leaves calls of earlier turns alone: Gemini validates only the current one', async () => {
    const kept = memo({ old: 'sig-old', now: 'sig-now' });
    const messages: UnifiedMessage[] = [
      user('first'),
      { role: 'assistant', content: [call('old')] },
      result('old'),
      user('second'),
      { role: 'assistant', content: [call('now')] },
    ];
    const restored = await restoreSignatures(messages, kept);
    expect(restored[1].content[0]).to.deep.equal(call('old'));
    expect(restored[4].content[0]).to.deep.equal(call('now', 'sig-now'));
    expect(kept.asked).to.deep.equal([['now']]);
  });

  it('counts a user turn of tool results only as part of the current turn', async () => {
    const kept = memo({ a: 'sig-a' });
    const messages: UnifiedMessage[] = [user('go'), { role: 'assistant', content: [call('a')] }, { role: 'user', content: [{ type: 'tool_result', toolCallId: 'a', content: [] }] }];
    expect((await restoreSignatures(messages, kept))[1].content[0]).to.deep.equal(call('a', 'sig-a'));
  });
});
