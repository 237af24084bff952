import { isPlainObject } from '../shared/is-plain-object';

/** Keywords whose value is one schema, a list of them, or a map of them. */
const ONE = ['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else'];
const LIST = ['anyOf', 'allOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', '$defs', 'definitions', 'patternProperties'];

/**
 * A JSON Schema as Anthropic's structured outputs (`output_config.format`) take it: every object that lists its
 * properties gets `additionalProperties: false` where it says nothing (Anthropic requires it; OpenAI strict
 * clients already send it, Gemini's `responseSchema` never does), and Gemini's own `propertyOrdering` goes.
 * Pure: the client's schema is not changed.
 */
export function encodeOutputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'propertyOrdering') continue;
    if (ONE.includes(key) && isPlainObject(value)) out[key] = encodeOutputSchema(value);
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map((sub) => (isPlainObject(sub) ? encodeOutputSchema(sub) : sub));
    else if (MAP.includes(key) && isPlainObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isPlainObject(sub) ? encodeOutputSchema(sub) : sub]));
    } else out[key] = value;
  }
  if (isPlainObject(out.properties) && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}
