import type { MessagesTurn } from './encode-messages-turns';

/**
 * A user turn that starts a new exchange: one without tool results. A turn that answers the pending calls continues
 * the assistant's tool loop, whatever else it carries (a screenshot after a tool result, a Gemini CLI function
 * response's inline data, which decodes as a user message right after the tool one).
 */
function opensExchange(turn: MessagesTurn): boolean {
  return turn.role === 'user' && !turn.content.some((block) => block.type === 'tool_result');
}

/** The assistant messages of the current tool loop: those after the last user turn that opens an exchange. */
function currentToolLoop(turns: readonly MessagesTurn[]): MessagesTurn[] {
  return turns.slice(turns.findLastIndex(opensExchange) + 1).filter((turn) => turn.role === 'assistant');
}

/**
 * Whether the assistant's current turn calls tools without opening with a thinking block. A tool loop is one
 * assistant turn (its messages run from the last user message without tool results), and with thinking on Anthropic
 * wants that turn to start with the thinking it opened with ("a final `assistant` message must start with a thinking
 * block"); the later messages of the loop carry none unless thinking is interleaved. It is missing when the calls came
 * from another format, whose reasoning cannot be replayed.
 * @see https://platform.claude.com/docs/build-with-claude/thinking-tool-workflows
 */
export function hasUnsignedToolTurn(turns: readonly MessagesTurn[]): boolean {
  const loop = currentToolLoop(turns);
  if (!loop.some((turn) => turn.content.some((block) => block.type === 'tool_use'))) return false;
  const first = loop[0].content[0]?.type;
  return first !== 'thinking' && first !== 'redacted_thinking';
}
