import type { GeminiContent } from './gemini-types';

/**
 * Gemma on the Gemini API has no system instruction: it answers 400 "Developer instruction is not enabled for
 * models/gemma-…" to one (every chat client sends a system prompt).
 */
export const TAKES_NO_SYSTEM_INSTRUCTION = /^(?:models\/)?gemma-/;

/**
 * The system text as the start of the first user turn, as Gemma's own chat template places it; a conversation that
 * opens with a model turn gets a user turn of its own before it.
 */
export function foldSystemInstruction(contents: GeminiContent[], system: string[]): GeminiContent[] {
  const text = { text: `${system.join('\n\n')}\n\n` };
  const first = contents.findIndex((content) => content.role === undefined || content.role === 'user');
  if (first !== 0) return [{ role: 'user', parts: [text] }, ...contents];
  return [{ ...contents[0], parts: [text, ...contents[0].parts] }, ...contents.slice(1)];
}
