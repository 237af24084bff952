import type { StreamStage, UnifiedResponse, UnifiedStreamEvent } from '@gateway/core';
import type { SignedThinkingBlock, StoredThinking } from './thinking-store';

export type SaveThinking = (toolCallId: string, thinking: StoredThinking) => Promise<void>;

/** Longer thinking than any budget allows (128k tokens are ~0.5 MB): past it a block is not kept for restoring. */
const MAX_THINKING_CHARS = 32 * 1024 * 1024;

/**
 * Watches an Anthropic answer on its way to a client that cannot carry thinking signatures, and hands the signed
 * thinking blocks that precede each tool call to `save`, keyed by that call's id. Events pass unchanged.
 */
export function createThinkingCaptureStage(save: SaveThinking): StreamStage {
  /** Signed blocks since the last tool call. */
  let blocks: SignedThinkingBlock[] = [];
  /** Thinking text of the block still streaming (its signature closes it). */
  let openText: string | undefined;
  /** The block still streaming passed MAX_THINKING_CHARS: it is not kept (an upstream's endless thinking was kept whole). */
  let overlong = false;
  let leading = true;
  let sawContent = false;
  /** Content came since the last block closed (or the message began): the next block follows that content. */
  let contentSinceBlock = false;

  /** The first block of a group decides whether the group opened the message. */
  function noteBlockStart(): void {
    if (blocks.length === 0 && openText === undefined) leading = !sawContent;
  }

  function closeBlock(block: SignedThinkingBlock): void {
    noteBlockStart();
    if (!overlong) blocks.push(blocks.length > 0 && contentSinceBlock ? { ...block, afterText: true } : block);
    contentSinceBlock = false;
    openText = undefined;
    overlong = false;
  }

  function onToolCall(id: string): Promise<void> | undefined {
    openText = undefined;
    sawContent = true;
    contentSinceBlock = true;
    if (blocks.length === 0) return undefined;
    const thinking: StoredThinking = { blocks, leading };
    blocks = [];
    return save(id, thinking);
  }

  return {
    name: 'claude-thinking-capture',

    event(event: UnifiedStreamEvent): UnifiedStreamEvent[] {
      switch (event.type) {
        case 'reasoning_delta':
          noteBlockStart();
          if ((openText?.length ?? 0) + event.text.length > MAX_THINKING_CHARS) {
            overlong = true;
            openText = '';
          } else if (!overlong) {
            openText = (openText ?? '') + event.text;
          }
          break;
        case 'reasoning_signature':
          closeBlock({ text: openText ?? '', signature: event.signature });
          break;
        case 'redacted_reasoning':
          closeBlock({ text: '', redactedData: event.data });
          break;
        case 'text_delta':
        case 'media':
          sawContent = true;
          contentSinceBlock = true;
          break;
        case 'tool_call_start':
          // The save settles long before the client can send its next turn; its failures are logged by the store.
          void onToolCall(event.id);
          break;
        default:
          break;
      }
      return [event];
    },

    async response(response: UnifiedResponse): Promise<UnifiedResponse> {
      const saves: Array<Promise<void>> = [];
      for (const part of response.content) {
        if (part.type === 'reasoning') {
          if (part.provider !== 'messages') continue;
          if (part.redactedData !== undefined) closeBlock({ text: '', redactedData: part.redactedData });
          else if (part.signature !== undefined) closeBlock({ text: part.text, signature: part.signature });
        } else if (part.type === 'tool_call') {
          const saved = onToolCall(part.id);
          if (saved) saves.push(saved);
        } else {
          sawContent = true;
          contentSinceBlock = true;
        }
      }
      await Promise.all(saves);
      return response;
    },
  };
}
