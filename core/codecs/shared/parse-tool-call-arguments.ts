import { isPlainObject } from './is-plain-object';

/**
 * A tool call's `arguments` (JSON text, as OpenAI sends it) → the object that Anthropic `input` and Gemini `args`
 * want. Empty text means `{}`. Text that is not a JSON object also becomes `{}`, and `onLoss` hears of it: it is
 * what a model wrote, often a call cut short by the output limit that the gateway itself handed the client, and
 * OpenAI takes any text there, so refusing it would fail every later turn of that conversation.
 */
export function parseToolCallArguments(text: string, onLoss?: () => void): Record<string, unknown> {
  return readToolCallArguments(text, onLoss).args;
}

/**
 * As parseToolCallArguments, and whether the text was cut short: not JSON at all (`{"path":"a.txt","con`), as a
 * call stopped by the output limit leaves it. Whole JSON that is no object (`null`, `[]`, as some models write for
 * a function without parameters) is not.
 */
export function readToolCallArguments(text: string, onLoss?: () => void): { args: Record<string, unknown>; cutShort: boolean } {
  if (text.trim() === '') return { args: {}, cutShort: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    onLoss?.();
    return { args: {}, cutShort: true };
  }
  if (isPlainObject(value)) return { args: value, cutShort: false };
  onLoss?.();
  return { args: {}, cutShort: false };
}

/**
 * Whether a streamed call's arguments are whole yet: JSON that parses. Empty text is not (its deltas may follow).
 * Stream encoders keep a call open across other events until it is: an upstream may send text or reasoning between
 * two argument deltas of one call (some compatible services send a `"\n"` content delta there).
 */
export function areArgumentsWhole(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
