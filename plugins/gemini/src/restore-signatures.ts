import type { UnifiedMessage } from '@gateway/core';
import type { SignatureMemo } from './signature-memo';

/**
 * Where Gemini checks thought signatures: the function calls of the current turn, the model steps after the last
 * user message that is not only tool results. Calls of earlier turns are not validated (a call there without its
 * signature gets the documented placeholder, see encodeContents).
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
function currentTurnStart(messages: readonly UnifiedMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message.role === 'user' && message.content.some((part) => part.type !== 'tool_result')) return i + 1;
  }
  return 0;
}

/**
 * Gives the function calls of the current turn that came back without a thought signature the one Gemini sent with
 * them, kept by the capture stage for clients whose format cannot carry it. Calls with a signature of their own, and
 * calls nothing was kept for, stay as they are. Loads only when some call needs it.
 */
export async function restoreSignatures(messages: readonly UnifiedMessage[], memo: Pick<SignatureMemo, 'load'>): Promise<UnifiedMessage[]> {
  const start = currentTurnStart(messages);
  const unsigned: string[] = [];
  for (let i = start; i < messages.length; i += 1) {
    if (messages[i].role !== 'assistant') continue;
    for (const part of messages[i].content) if (part.type === 'tool_call' && !part.signature) unsigned.push(part.id);
  }
  if (unsigned.length === 0) return [...messages];
  const kept = await memo.load(unsigned);
  if (kept.size === 0) return [...messages];
  return messages.map((message, i) => {
    if (i < start || message.role !== 'assistant') return message;
    let changed = false;
    const content = message.content.map((part) => {
      const signature = part.type === 'tool_call' && !part.signature ? kept.get(part.id) : undefined;
      if (signature === undefined) return part;
      changed = true;
      return { ...part, signature };
    });
    return changed ? { ...message, content } : message;
  });
}
