import { isPlainObject } from '../shared/is-plain-object';


function decodeSub(value: unknown): unknown {
  return isPlainObject(value) ? decodeGeminiSchema(value) : value;
}

/** Schema fields Gemini declares as int64, which its JSON (and the SDK's `Schema` type) writes as strings. */
const INT64_FIELDS = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);

function int64Value(value: unknown): unknown {
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
}

/** Gemini writes every enum value as a string, even for an integer or number type; JSON Schema wants numbers there. */
function enumValues(values: unknown, type: string | undefined): unknown {
  if (!Array.isArray(values) || (type !== 'integer' && type !== 'number')) return values;
  return values.map((v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v));
}

/**
 * Gemini's OpenAPI-subset Schema (`parameters`, `responseSchema`) → JSON Schema: enum type names
 * (`OBJECT`, as the SDK's `Type` sends them) become lowercase, `nullable: true` becomes a
 * `[type, "null"]` union, int64 counts written as strings (`"minItems": "1"`) become numbers, and
 * `format: "enum"` (Gemini's marker for an enum, not a JSON Schema format) goes, with the enum's values
 * made numbers where the type is numeric; so other providers read it. Other keywords are kept as they are.
 */
export function decodeGeminiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const rawType = schema.type;
  const type = typeof rawType === 'string' ? rawType.toLowerCase() : undefined;
  const typed = type !== undefined && type !== 'type_unspecified';
  if (typed) out.type = schema.nullable === true ? [type, 'null'] : type;
  else if (rawType !== undefined && type === undefined) out.type = rawType;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' || (key === 'nullable' && typed) || (key === 'format' && value === 'enum')) continue;
    if (key === 'properties' && isPlainObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, decodeSub(sub)]));
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = decodeSub(value);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = value.map(decodeSub);
    } else if (INT64_FIELDS.has(key)) {
      out[key] = int64Value(value);
    } else if (key === 'enum') {
      // `nullable` lets the value be null, which JSON Schema checks against the enum too.
      const values = enumValues(value, type);
      out.enum = schema.nullable === true && typed && Array.isArray(values) && !values.includes(null) ? [...values, null] : values;
    } else {
      out[key] = value;
    }
  }
  return out;
}
