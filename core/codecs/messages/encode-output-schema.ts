import { isPlainObject } from '../shared/is-plain-object';

/** The string formats Anthropic's structured outputs take (the rest would be refused). */
const SUPPORTED_STRING_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

/** Keywords that go as they are. */
const KEPT = new Set(['type', 'enum', 'const', '$ref', 'required', 'title', 'description']);
/** Keywords that constrain nothing: Gemini's own key order, the dialect's name. */
const DROPPED = new Set(['propertyOrdering', '$schema']);

/**
 * A JSON Schema as Anthropic's structured outputs (`output_config.format`) take it, following the rules of
 * Anthropic's own SDK (`transformJSONSchema`): they take a subset of JSON Schema and refuse the rest with a 400
 * (`For 'integer' type, property 'minimum' is not supported`), where OpenAI and Gemini take the whole schema a
 * Pydantic `ge=` or a zod `.min()` writes. So each schema keeps its type, literals, references, combinators (`oneOf`
 * read as `anyOf`), properties, `required`, items, a supported string `format` and a `minItems` of 0 or 1; every object
 * is closed (`additionalProperties: false`, which Anthropic requires); any other keyword is said in the description
 * (`{minimum: 0, maximum: 150}`), for the model to follow. Pure: the client's schema is not changed.
 */
export function encodeOutputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const said: Array<[string, unknown]> = [];
  const isString = schema.type === 'string';
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (KEPT.has(key)) out[key] = value;
    else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) out[key === 'oneOf' ? 'anyOf' : key] = value.map(subschema);
    else if ((key === 'properties' || key === '$defs' || key === 'definitions') && isPlainObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, subschema(sub)]));
    } else if (key === 'items' && isPlainObject(value)) out.items = encodeOutputSchema(value);
    else if (key === 'format' && isString && typeof value === 'string' && SUPPORTED_STRING_FORMATS.has(value)) out.format = value;
    else if (key === 'minItems' && (value === 0 || value === 1)) out.minItems = value;
    else if (!(key === 'additionalProperties' && value === false)) said.push([key, value]);
  }
  if (isObjectSchema(out)) {
    // As Anthropic's SDK writes an object: its properties listed (none, for an open map), no others allowed.
    out.properties ??= {};
    out.additionalProperties = false;
  }
  if (said.length > 0) {
    const words = `{${said.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ')}}`;
    out.description = typeof out.description === 'string' && out.description !== '' ? `${out.description}\n\n${words}` : words;
  }
  return out;
}

function subschema(value: unknown): unknown {
  return isPlainObject(value) ? encodeOutputSchema(value) : value;
}

function isObjectSchema(schema: Record<string, unknown>): boolean {
  return schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || isPlainObject(schema.properties);
}
