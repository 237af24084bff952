import type { MessagesTurn } from './encode-messages-turns';

/** A user turn that starts a new exchange: anything but tool results (those continue the assistant's tool loop). */
function opensExchange(turn: MessagesTurn): boolean {
  return turn.role === 'user' && turn.content.some((block) => block.type !== 'tool_result');
}

/**
 * Whether the assistant's current turn calls tools without opening with a thinking block. A tool loop is one
 * assistant turn (its messages run from the last user message that is not only tool results), and with thinking on
 * Anthropic wants that turn to start with the thinking it opened with ("a final `assistant` message must start with a
 * thinking block"); the later messages of the loop carry none unless thinking is interleaved. It is missing when the
 * calls came from another format, whose reasoning cannot be replayed.
 * @see https://platform.claude.com/docs/build-with-claude/thinking-tool-workflows
 */
export function hasUnsignedToolTurn(turns: readonly MessagesTurn[]): boolean {
  const start = turns.findLastIndex(opensExchange) + 1;
  const loop = turns.slice(start).filter((turn) => turn.role === 'assistant');
  if (!loop.some((turn) => turn.content.some((block) => block.type === 'tool_use'))) return false;
  const first = loop[0].content[0]?.type;
  return first !== 'thinking' && first !== 'redacted_thinking';
}
