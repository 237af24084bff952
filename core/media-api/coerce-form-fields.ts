/**
 * Multipart form values arrive as strings (`n=2`, `async=true`, `stream=false`). Before a body is validated, the
 * values of properties the schema types as boolean, integer or number are converted when they read as one; other
 * strings are left alone so that validation names the field. Strings the schema keeps as strings (`seconds: "8"`)
 * never change. JSON bodies are not coerced: their types are the client's own.
 */
export function coerceFormFields(body: Record<string, unknown>, schema: { properties?: Record<string, unknown> }): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = out[name];
    if (typeof value !== 'string') continue;
    const type = (property as { type?: unknown }).type;
    if (type === 'boolean') {
      if (value === 'true') out[name] = true;
      else if (value === 'false') out[name] = false;
    } else if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim())) {
      out[name] = Number(value);
    }
  }
  return out;
}

/** `async=true` (or `1`) in the query; the body's own `async` wins when it is set. */
export function isAsyncRequested(bodyValue: unknown, query: Record<string, string>): boolean {
  if (typeof bodyValue === 'boolean') return bodyValue;
  const flag = query.async?.toLowerCase();
  return flag === 'true' || flag === '1';
}
