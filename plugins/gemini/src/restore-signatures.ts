import type { UnifiedMessage, UnifiedToolCallPart } from '@gateway/core';
import type { SignatureMemo } from './signature-memo';

/**
 * Where Gemini checks thought signatures: the function calls of the current turn, the model steps since the last
 * user content that carries no function response. The Gemini encoder merges the messages between two assistant
 * messages into one user content, so such a run starts a turn only when none of its messages holds a tool result:
 * text a client sends beside its tool results (Claude Code's reminders) continues the turn. Calls of earlier turns
 * are not validated (a call there without its signature gets the documented placeholder, see encodeContents).
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export function currentTurnStart(messages: readonly UnifiedMessage[]): number {
  let runHasToolResult = false;
  let runHasOther = false;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message.role === 'assistant') {
      if (runHasOther && !runHasToolResult) return i + 1;
      runHasToolResult = false;
      runHasOther = false;
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'tool_result') runHasToolResult = true;
      else if (part.type !== 'reasoning') runHasOther = true;
    }
  }
  return 0;
}

/**
 * Gives the function calls of the current turn that came back without a thought signature the one Gemini sent with
 * them, kept by the capture stage for clients whose format cannot carry it (`scope`: the client's principal). Calls
 * with a signature of their own, and calls nothing was kept for, stay as they are. Loads only when some call needs it;
 * `messages` itself comes back when nothing changed, and is never modified.
 */
export async function restoreSignatures(messages: UnifiedMessage[], memo: Pick<SignatureMemo, 'load'>, scope: string): Promise<UnifiedMessage[]> {
  const start = currentTurnStart(messages);
  const unsigned: UnifiedToolCallPart[] = [];
  for (let i = start; i < messages.length; i += 1) {
    if (messages[i].role !== 'assistant') continue;
    for (const part of messages[i].content) if (part.type === 'tool_call' && !part.signature) unsigned.push(part);
  }
  if (unsigned.length === 0) return messages;
  const kept = await memo.load(unsigned, scope);
  if (kept.size === 0) return messages;
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
