import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Numbers in tool calls kept to the digit. JSON.parse reads every number as a double, so an id past 2^53
 * (`{"order_id": 12345678901234567890}`, a snowflake id a model copies into a call) comes out changed once a
 * translation writes the arguments again (`12345678901234567000`): another order. Where a tool's arguments (or a
 * Gemini tool result) hold such a number, the text is read again with JSON.parse's source access and every number
 * there whose text its double would not write back is kept as its own digits (`JSON.rawJSON`), which JSON.stringify
 * writes unchanged. Numbers anywhere else stay numbers: the codecs read them (a temperature, logprobs).
 */

interface RawJson {
  readonly rawJSON: string;
}
interface JsonWithSource {
  rawJSON(text: string): RawJson;
  isRawJSON(value: unknown): value is RawJson;
}
type SourceReviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * Node 21+ has source access (V8 11.4). Node 20's V8 has it behind a flag: set at run time, JSON.parse passes sources
 * to revivers at once, and a context made afterwards has JSON.rawJSON (whose values the main context's JSON.stringify
 * writes as they are). No command-line flag, which would make `node` refuse to start once a later V8 drops it.
 */
function jsonWithSource(): JsonWithSource | undefined {
  const own = JSON as typeof JSON & Partial<JsonWithSource>;
  if (typeof own.rawJSON === 'function' && typeof own.isRawJSON === 'function') return own as JsonWithSource;
  try {
    setFlagsFromString('--harmony-json-parse-with-source');
    const fresh = runInNewContext('JSON') as Partial<JsonWithSource>;
    if (typeof fresh.rawJSON !== 'function' || typeof fresh.isRawJSON !== 'function') return undefined;
    const reviver: SourceReviver = (_key, value, context) => (typeof value === 'number' ? context?.source : value);
    const works = (JSON.parse('[1.0]', reviver as Parameters<typeof JSON.parse>[1]) as unknown[])[0] === '1.0' && JSON.stringify([fresh.rawJSON('1.0')]) === '[1.0]';
    return works ? (fresh as JsonWithSource) : undefined;
  } catch {
    return undefined;
  }
}

const json = jsonWithSource();

/** Whether this Node keeps a number's digits (JSON.parse source access and JSON.rawJSON). */
export const EXACT_JSON_NUMBERS = json !== undefined;

/** Whether `value` is a number kept to its digits by withExactToolNumbers (JSON.stringify writes it as them). */
export function isExactNumber(value: unknown): boolean {
  return json !== undefined && json.isRawJSON(value);
}

/**
 * Whether a parsed number may not be the one its text wrote: an integer past 2^53, or one too large for a double
 * (read as Infinity). Told from the double alone, so cheap enough for every number of every tool call; a decimal
 * whose digits past the 17th are lost is not told (a text is read again when another number needs it).
 */
export function mayBeInexact(value: number): boolean {
  return Number.isInteger(value) ? !Number.isSafeInteger(value) : !Number.isFinite(value);
}

/** Where a JSON tree holds a tool's own values: `holder[key]` is one (the values inside it, not a bare scalar there). */
export type ToolValuePlace = (holder: Record<string, unknown>, key: string) => boolean;

/**
 * The places of the wire formats the gateway translates: a Messages `tool_use` (`server_tool_use`, `mcp_tool_use`)
 * block's `input`, a Gemini `functionCall`'s `args` and `functionResponse`'s `response` (each beside a `name`). Chat
 * and Responses carry arguments as text, which is never parsed on the way through.
 */
export const TOOL_VALUE_PLACES: ToolValuePlace = (holder, key) => {
  if (key === 'input') return typeof holder.type === 'string' && holder.type.endsWith('tool_use');
  return (key === 'args' || key === 'response') && typeof holder.name === 'string';
};

/**
 * `parsed` (JSON.parse of `text`) with the numbers inside its tool values exact (`'whole'`: the text is one, a tool
 * call's arguments or a tool's result): itself when none may be inexact (the common case, found by a walk of the tree,
 * no second parse), else `text` read again keeping those numbers' digits. Only numbers inside an object or array are
 * kept so: a bare number where an object belongs stays a number, for the schemas and codecs to judge.
 */
export function withExactToolNumbers<T>(parsed: T, text: string | Buffer, places: ToolValuePlace | 'whole' = TOOL_VALUE_PLACES): T {
  if (json === undefined || typeof parsed !== 'object' || parsed === null || !hasInexactNumber(parsed, places, places === 'whole')) return parsed;
  const source = typeof text === 'string' ? text : text.toString('utf8');
  const { rawJSON } = json;
  const reviver: SourceReviver = (_key, value, context) =>
    typeof value === 'number' && context?.source !== undefined && context.source !== String(value) ? rawJSON(context.source) : value;
  const exact = JSON.parse(source, reviver as Parameters<typeof JSON.parse>[1]) as T;
  if (places !== 'whole') restoreOutside(exact as object, places);
  return exact;
}

/** JSON.parse of `text`, with the numbers inside its tool values exact (see withExactToolNumbers). Throws as JSON.parse does. */
export function parseToolJson(text: string, places: ToolValuePlace | 'whole' = TOOL_VALUE_PLACES): unknown {
  return withExactToolNumbers(JSON.parse(text) as unknown, text, places);
}

/** Whether a number held in `container` (inside a tool value when `inside`), or below it, may be inexact. */
function hasInexactNumber(container: object, places: ToolValuePlace | 'whole', inside: boolean): boolean {
  if (Array.isArray(container)) {
    for (const item of container) {
      if (typeof item === 'number' ? inside && mayBeInexact(item) : typeof item === 'object' && item !== null && hasInexactNumber(item, places, inside)) return true;
    }
    return false;
  }
  const holder = container as Record<string, unknown>;
  // for…in: JSON.parse makes plain objects, whose keys are their own; no array of keys per object.
  for (const key in holder) {
    const value = holder[key];
    if (typeof value === 'number') {
      if (inside && mayBeInexact(value)) return true;
    } else if (typeof value === 'object' && value !== null) {
      if (hasInexactNumber(value, places, inside || (places !== 'whole' && places(holder, key)))) return true;
    }
  }
  return false;
}

/**
 * Kept digits back to numbers, in place, in `container` and below it, but for what sits inside a tool value (a place's
 * container, left whole): the codecs read those numbers. A place's own value, when a bare number, is restored too.
 */
function restoreOutside(container: object, places: ToolValuePlace): void {
  const holder = container as Record<string, unknown>;
  const isArray = Array.isArray(container);
  for (const key of Object.keys(holder)) {
    const value = holder[key];
    if (typeof value !== 'object' || value === null) continue;
    if (json!.isRawJSON(value)) holder[key] = Number(value.rawJSON);
    else if (isArray || !places(holder, key)) restoreOutside(value, places);
  }
}
