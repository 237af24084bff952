import type { MessagesTurn } from './encode-messages-turns';

const THINKING_BLOCKS = new Set(['thinking', 'redacted_thinking']);

/**
 * The turns without their thinking blocks, for a request sent with thinking off (forced tool use, a prefill, a tool
 * turn without its signed thinking): Anthropic refuses a thinking block then ("When thinking is disabled, an
 * `assistant` message in the final position cannot contain `thinking`"), and ignores those of earlier turns. A turn
 * that would be left empty keeps its blocks.
 */
export function stripThinkingBlocks(turns: MessagesTurn[]): MessagesTurn[] {
  if (!turns.some(hasThinking)) return turns;
  return turns.map((turn) => {
    if (!hasThinking(turn)) return turn;
    const content = turn.content.filter((block) => !THINKING_BLOCKS.has(String(block.type)));
    return content.length > 0 ? { ...turn, content } : turn;
  });
}

function hasThinking(turn: MessagesTurn): boolean {
  return turn.role === 'assistant' && turn.content.some((block) => THINKING_BLOCKS.has(String(block.type)));
}
