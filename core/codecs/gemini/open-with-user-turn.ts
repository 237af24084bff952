import type { GeminiContent } from './gemini-types';

/** What the added user turn says: nothing the model should act on, only that the talk began before. */
const CONTINUATION_TEXT = '(conversation continues)';

/**
 * Contents that open with a model turn calling a function get a short user turn before it. Gemini refuses such a
 * history (400 "Please ensure that function call turn comes immediately after a user turn or after a function
 * response turn"), and a chat client's sliding window cuts one that way: [system, assistant(tool_calls), tool, user].
 */
export function openWithUserTurn(contents: GeminiContent[]): GeminiContent[] {
  const first = contents[0];
  if (first?.role !== 'model' || !first.parts.some((part) => part.functionCall !== undefined)) return contents;
  return [{ role: 'user', parts: [{ text: CONTINUATION_TEXT }] }, ...contents];
}
