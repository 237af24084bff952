import { isPlainObject } from '../shared/is-plain-object';


/**
 * Tool-call arguments an upstream model produced → `args`. Gemini clients need an object; arguments
 * that are not a JSON object (a truncated call) become `{}` so that the client's own argument
 * validation reports it to the model instead of the whole answer failing.
 */
export function toGeminiArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}
