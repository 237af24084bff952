import Ajv, { type ErrorObject, type JSONSchemaType, type Schema } from 'ajv';
import addFormats from 'ajv-formats';
import { GatewayError } from '../errors/gateway-error';

/**
 * One Ajv instance for the process: schemas compile once at module load, never per request. `strictNumbers`: a
 * number too large for a double (`1e309`) parses to Infinity, which is no JSON number and would go upstream as null.
 */
export const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false, strictNumbers: true });
addFormats(ajv);
addUrlFormat(ajv);

/**
 * Format `http-url`: an http(s) URL that Node's URL parser reads, port in range (ajv-formats' `uri` takes
 * `http://host:99999`, which then failed every request to the platform).
 */
export function addUrlFormat(instance: Ajv): void {
  instance.addFormat('http-url', (text: string) => {
    try {
      const url = new URL(text);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  });
}

export type Validator<T> = (value: unknown) => T;

/** A schema `pattern`: text that is not blank and has no whitespace at either end (a license, an admin key). */
export const TRIMMED_TEXT = '^\\S(?:.*\\S)?$';

/**
 * A schema `pattern`: a platform's base URL, to which the gateway appends the API path (`/v1/chat/completions`):
 * http(s), no query or fragment (it would land inside the path), not ending in the API version the path adds
 * (`https://api.openai.com/v1` made `/v1/v1/…`).
 */
export const BASE_URL = '^https?://(?![^\\s?#]*/v1(?:beta|alpha)?/?$)[^\\s?#]+$';

/** What a schema pattern means, said in words where ajv would quote the regular expression. */
const PATTERN_MEANINGS: Readonly<Record<string, string>> = {
  [TRIMMED_TEXT]: 'must not be blank, nor start or end with whitespace',
  [BASE_URL]: 'must be an http(s) URL with no query, not ending in /v1 (the gateway adds the API version itself)',
};

/**
 * Compiles a schema once and returns a function that returns the value typed, or throws
 * GW_INVALID_REQUEST whose message names the failing field (`messages[1].role: must be …`).
 */
export function compileValidator<T>(schema: JSONSchemaType<T> | Schema, what = 'body'): Validator<T> {
  const validate = ajv.compile<T>(schema as Schema);
  return (value: unknown): T => {
    if (validate(value)) return value;
    const first = validate.errors?.[0];
    const { param, message } = describeAjvError(first, what);
    throw new GatewayError('GW_INVALID_REQUEST', message, { param });
  };
}

/** `/messages/1/role` → `messages[1].role`. */
export function toFieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}

export function describeAjvError(error: ErrorObject | undefined, what: string): { param?: string; message: string } {
  if (!error) return { message: `${what} is invalid` };
  let field = toFieldPath(error.instancePath);
  let detail = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    field = field ? `${field}.${missing}` : missing;
    detail = 'is required';
  } else if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ');
    detail = `must be one of ${allowed}`;
  } else if (error.keyword === 'format' && (error.params as { format?: string }).format === 'http-url') {
    detail = 'must be an http(s) URL (a host and, if any, a port from 1 to 65535)';
  } else if (error.keyword === 'pattern') {
    detail = PATTERN_MEANINGS[String((error.params as { pattern: string }).pattern)] ?? detail;
  } else if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    field = field ? `${field}.${extra}` : extra;
    detail = 'is not a known field';
  }
  // A key that breaks a propertyNames rule (a platform named `Open`): the key itself is what to fix.
  if (error.propertyName !== undefined) detail = `key "${error.propertyName}" ${detail}`;
  const param = field || undefined;
  return { param, message: `${param ?? what}: ${detail}` };
}
