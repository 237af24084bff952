import type { UnifiedMessage, UnifiedPart, UnifiedReasoningPart } from '@gateway/core';
import type { StoredThinking } from './thinking-store';

/** Whether an assistant message already carries thinking Anthropic can verify (a Messages client sent it back). */
function hasSignedThinking(message: UnifiedMessage): boolean {
  return message.content.some((part) => part.type === 'reasoning' && part.provider === 'messages' && (part.signature !== undefined || part.redactedData !== undefined));
}

/** Ids of the tool calls whose thinking may need restoring: those of assistant messages without signed thinking. */
export function toolCallIdsWithoutThinking(messages: readonly UnifiedMessage[]): string[] {
  const ids: string[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant' || hasSignedThinking(message)) continue;
    for (const part of message.content) if (part.type === 'tool_call') ids.push(part.id);
  }
  return ids;
}

function toParts(blocks: readonly StoredThinking['blocks'][number][]): UnifiedReasoningPart[] {
  return blocks.map((block) => ({
    type: 'reasoning',
    text: block.text,
    provider: 'messages',
    ...(block.signature !== undefined ? { signature: block.signature } : {}),
    ...(block.redactedData !== undefined ? { redactedData: block.redactedData } : {}),
  }));
}

/**
 * Puts stored signed thinking back into the assistant messages of a client that could not carry it: before the
 * tool call it preceded, or, when it opened the answer, at the head of the answer's first message (Anthropic wants an
 * assistant turn with thinking to start with it), each later block after the text that came before it. A client
 * may have split one answer into several consecutive assistant messages (a Responses client's items: reasoning,
 * message, reasoning, call); they are one turn to Anthropic. Messages that already hold signed thinking are left
 * alone.
 */
export function restoreThinking(messages: readonly UnifiedMessage[], stored: ReadonlyMap<string, StoredThinking>): UnifiedMessage[] {
  if (stored.size === 0) return [...messages];
  const out = [...messages];
  /** Index of the first message of the run of consecutive assistant messages each message belongs to. */
  let runStart = 0;
  const heads = new Map<number, UnifiedPart[]>();
  out.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    if (index === 0 || out[index - 1].role !== 'assistant') runStart = index;
    if (hasSignedThinking(message)) return;
    const body: UnifiedPart[] = [];
    let restored = false;
    for (const part of message.content) {
      const thinking = part.type === 'tool_call' ? stored.get(part.id) : undefined;
      if (thinking) {
        restored = true;
        if (thinking.leading) {
          // The blocks up to the first that followed text open the answer; the rest go where they were, before the call.
          const split = thinking.blocks.findIndex((block) => block.afterText === true);
          const opening = split < 0 ? thinking.blocks : thinking.blocks.slice(0, split);
          heads.set(runStart, [...(heads.get(runStart) ?? []), ...toParts(opening)]);
          if (split >= 0) body.push(...toParts(thinking.blocks.slice(split)));
        } else body.push(...toParts(thinking.blocks));
      }
      body.push(part);
    }
    if (restored) out[index] = { ...message, content: body };
  });
  for (const [index, head] of heads) out[index] = { ...out[index], content: [...head, ...out[index].content] };
  return out;
}
