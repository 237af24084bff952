import { GatewayError } from '../../errors/gateway-error';
import { isPlainObject } from '../shared/is-plain-object';

/**
 * Which keys of a request object hold further Gemini structure. A key listed with `{}` has its own
 * keys folded but its values kept; a key not listed keeps its value untouched (user data such as
 * `args`, `response` and schemas, whose property names must never change).
 */
interface KeySpec {
  readonly [camelKey: string]: KeySpec | readonly [KeySpec];
}

const LEAF: KeySpec = {};
const BLOB_PARTS: KeySpec = { inlineData: LEAF, fileData: LEAF };
const PART: KeySpec = {
  inlineData: LEAF,
  fileData: LEAF,
  functionCall: LEAF,
  functionResponse: { parts: [BLOB_PARTS] },
  executableCode: LEAF,
  codeExecutionResult: LEAF,
  videoMetadata: LEAF,
};
const CONTENT: KeySpec = { parts: [PART] };
const TOOL: KeySpec = {
  functionDeclarations: [LEAF],
  googleSearch: LEAF,
  googleSearchRetrieval: LEAF,
  codeExecution: LEAF,
  urlContext: LEAF,
};
const REQUEST: KeySpec = {
  contents: [CONTENT],
  systemInstruction: CONTENT,
  tools: [TOOL],
  toolConfig: { functionCallingConfig: LEAF },
  generationConfig: { thinkingConfig: LEAF, imageConfig: LEAF },
  safetySettings: [LEAF],
};

function toCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_match, c: string) => c.toUpperCase());
}

function childPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function normalizeObject(value: Record<string, unknown>, spec: KeySpec, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const camel = toCamel(key);
    if (Object.prototype.hasOwnProperty.call(out, camel)) {
      throw new GatewayError('GW_INVALID_REQUEST', `${childPath(path, camel)}: sent twice (camelCase and snake_case); send one spelling`, {
        param: childPath(path, camel),
      });
    }
    const childSpec = Object.prototype.hasOwnProperty.call(spec, camel) ? spec[camel] : undefined;
    out[camel] = childSpec === undefined ? child : normalizeValue(child, childSpec, childPath(path, camel));
  }
  return out;
}

function isArraySpec(spec: KeySpec | readonly [KeySpec]): spec is readonly [KeySpec] {
  return Array.isArray(spec);
}

function normalizeValue(value: unknown, spec: KeySpec | readonly [KeySpec], path: string): unknown {
  if (isArraySpec(spec)) {
    // Google's JSON parser takes a lone object for a repeated field (Vertex docs send `contents: {role, parts: {text}}`).
    const items = isPlainObject(value) ? [value] : value;
    if (!Array.isArray(items)) return value;
    const [itemSpec] = spec;
    return items.map((item: unknown, i) => (isPlainObject(item) ? normalizeObject(item, itemSpec, `${path}[${i}]`) : item));
  }
  return isPlainObject(value) ? normalizeObject(value, spec, path) : value;
}

/**
 * Folds the snake_case spellings the REST docs use (`inline_data`, `mime_type`, `generation_config`)
 * into the camelCase the SDKs send, on the request's structure only; a lone object where a list of
 * contents, parts or tools belongs becomes a list of one. Values of the wrong type are left as they
 * are for the schema to reject. Both spellings of one field in one object are a 400,
 * as on the Gemini API.
 */
export function normalizeGeminiKeys(body: unknown): unknown {
  return isPlainObject(body) ? normalizeObject(body, REQUEST, '') : body;
}
