import { isPlainObject } from '../shared/is-plain-object';


function decodeSub(value: unknown): unknown {
  return isPlainObject(value) ? decodeGeminiSchema(value) : value;
}

/**
 * Gemini's OpenAPI-subset Schema (`parameters`, `responseSchema`) → JSON Schema: enum type names
 * (`OBJECT`, as the SDK's `Type` sends them) become lowercase and `nullable: true` becomes a
 * `[type, "null"]` union, so other providers read it. Other keywords are kept as they are.
 */
export function decodeGeminiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const rawType = schema.type;
  const type = typeof rawType === 'string' ? rawType.toLowerCase() : undefined;
  const typed = type !== undefined && type !== 'type_unspecified';
  if (typed) out.type = schema.nullable === true ? [type, 'null'] : type;
  else if (rawType !== undefined && type === undefined) out.type = rawType;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' || (key === 'nullable' && typed)) continue;
    if (key === 'properties' && isPlainObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, decodeSub(sub)]));
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = decodeSub(value);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = value.map(decodeSub);
    } else {
      out[key] = value;
    }
  }
  return out;
}
