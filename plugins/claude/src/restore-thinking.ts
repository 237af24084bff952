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

function toParts(thinking: StoredThinking): UnifiedReasoningPart[] {
  return thinking.blocks.map((block) => ({
    type: 'reasoning',
    text: block.text,
    provider: 'messages',
    ...(block.signature !== undefined ? { signature: block.signature } : {}),
    ...(block.redactedData !== undefined ? { redactedData: block.redactedData } : {}),
  }));
}

/**
 * Puts stored signed thinking back into the assistant messages of a client that could not carry it: before the
 * tool call it preceded, or at the head of the message when it opened the message (Anthropic wants an assistant
 * turn with thinking to start with it). Messages that already hold signed thinking are left alone.
 */
export function restoreThinking(messages: readonly UnifiedMessage[], stored: ReadonlyMap<string, StoredThinking>): UnifiedMessage[] {
  if (stored.size === 0) return [...messages];
  return messages.map((message) => {
    if (message.role !== 'assistant' || hasSignedThinking(message)) return message;
    const head: UnifiedPart[] = [];
    const body: UnifiedPart[] = [];
    let restored = false;
    for (const part of message.content) {
      const thinking = part.type === 'tool_call' ? stored.get(part.id) : undefined;
      if (thinking) {
        (thinking.leading ? head : body).push(...toParts(thinking));
        restored = true;
      }
      body.push(part);
    }
    return restored ? { ...message, content: [...head, ...body] } : message;
  });
}
