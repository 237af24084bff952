import type { MessagesTurn } from './encode-messages-turns';

/**
 * Whether the last assistant turn calls tools without opening with a thinking block. With thinking on, Anthropic
 * rejects such a conversation ("a final `assistant` message must start with a thinking block … To avoid this
 * requirement, disable `thinking`"): it happens when the tool calls came from another format, whose reasoning
 * cannot be replayed. @see https://docs.claude.com/en/docs/build-with-claude/extended-thinking#extended-thinking-with-tool-use
 */
export function hasUnsignedToolTurn(turns: readonly MessagesTurn[]): boolean {
  const last = turns.findLast((turn) => turn.role === 'assistant');
  if (!last || !last.content.some((block) => block.type === 'tool_use')) return false;
  const first = last.content[0].type;
  return first !== 'thinking' && first !== 'redacted_thinking';
}
