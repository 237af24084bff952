import { isPlainObject } from './is-plain-object';

/**
 * A tool call's `arguments` (JSON text, as OpenAI sends it) → the object that Anthropic `input` and Gemini `args`
 * want. Empty text means `{}`. Text that is not a JSON object also becomes `{}`, and `onLoss` hears of it: it is
 * what a model wrote, often a call cut short by the output limit that the gateway itself handed the client, and
 * OpenAI takes any text there, so refusing it would fail every later turn of that conversation.
 */
export function parseToolCallArguments(text: string, onLoss?: () => void): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (isPlainObject(value)) return value;
  } catch {
    // Not JSON: the same loss as JSON that is not an object.
  }
  onLoss?.();
  return {};
}
