/**
 * Numbers in tool calls kept to the digit. JSON.parse reads every number as a double, so an id past 2^53
 * (`{"order_id": 12345678901234567890}`, a snowflake id a model copies into a call) or a decimal of more than 15
 * digits comes out changed once a translation writes the arguments again (`12345678901234567000`): another order.
 * Where a tool's arguments (or a Gemini tool result) hold such a number, the text is read again with JSON.parse's
 * source access and the number kept as its own digits (`JSON.rawJSON`), which JSON.stringify writes back unchanged.
 * Numbers anywhere else stay numbers: the codecs read them (a temperature, logprobs). Node 21+ has source access;
 * Node 20 with `--harmony-json-parse-with-source` (npm start and npm test set it); without it numbers read as before.
 */

interface RawJson {
  readonly rawJSON: string;
}
interface JsonWithSource {
  rawJSON(text: string): RawJson;
  isRawJSON(value: unknown): value is RawJson;
}
type SourceReviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

const json = JSON as typeof JSON & Partial<JsonWithSource>;

/** Whether this Node can keep a number's digits (JSON.parse source access and JSON.rawJSON). */
export const EXACT_JSON_NUMBERS = typeof json.rawJSON === 'function' && typeof json.isRawJSON === 'function' && sourceAccessWorks();

function sourceAccessWorks(): boolean {
  try {
    const reviver: SourceReviver = (_key, value, context) => (typeof value === 'number' ? context?.source : value);
    return (JSON.parse('[1.0]', reviver as Parameters<typeof JSON.parse>[1]) as unknown[])[0] === '1.0';
  } catch {
    return false;
  }
}

/**
 * Whether a parsed number may not be the one its text wrote: an integer past 2^53, or a value that prints with more
 * than 15 significant digits (any text of 15 or fewer reads back exactly, so this one had more).
 */
export function mayBeInexact(value: number): boolean {
  if (Number.isInteger(value)) return !Number.isSafeInteger(value);
  const text = String(value);
  const mantissa = text.split('e')[0].replace(/^-/, '').replace('.', '').replace(/^0+/, '');
  return mantissa.length > 15;
}

/** Where a JSON tree holds a tool's own values: `holder[key]` is one (and all below it). */
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
 * `parsed` (JSON.parse of `text`) with the numbers of its tool values exact (`'whole'`: the text is one, a tool call's
 * arguments or a tool's result): itself when none may be inexact (the
 * common case, found by a walk of the tree, no second parse), else `text` read again keeping those numbers' digits.
 */
export function withExactToolNumbers<T>(parsed: T, text: string | Buffer, places: ToolValuePlace | 'whole' = TOOL_VALUE_PLACES): T {
  if (!EXACT_JSON_NUMBERS || !hasInexactNumber(parsed, places, places === 'whole')) return parsed;
  const source = typeof text === 'string' ? text : text.toString('utf8');
  const reviver: SourceReviver = (_key, value, context) =>
    typeof value === 'number' && context?.source !== undefined && context.source !== String(value) ? json.rawJSON!(context.source) : value;
  const exact = JSON.parse(source, reviver as Parameters<typeof JSON.parse>[1]) as T;
  return places === 'whole' ? exact : (restoreOutside(exact, places, false) as T);
}

function hasInexactNumber(node: unknown, places: ToolValuePlace | 'whole', inside: boolean): boolean {
  if (typeof node === 'number') return inside && mayBeInexact(node);
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) {
    for (const item of node) if (hasInexactNumber(item, places, inside)) return true;
    return false;
  }
  const holder = node as Record<string, unknown>;
  for (const key of Object.keys(holder)) {
    const value = holder[key];
    if (typeof value !== 'object' && typeof value !== 'number') continue;
    if (hasInexactNumber(value, places, inside || (places !== 'whole' && places(holder, key)))) return true;
  }
  return false;
}

/** Kept digits outside the tool values back to numbers, in place: the codecs read those as numbers. */
function restoreOutside(node: unknown, places: ToolValuePlace, inside: boolean): unknown {
  if (typeof node !== 'object' || node === null) return node;
  if (json.isRawJSON!(node)) return inside ? node : Number(node.rawJSON);
  if (inside) return node;
  const holder = node as Record<string, unknown>;
  for (const key of Object.keys(holder)) {
    const value = holder[key];
    if (typeof value !== 'object' || value === null) continue;
    const restored = restoreOutside(value, places, Array.isArray(holder) ? false : places(holder, key));
    if (restored !== value) holder[key] = restored;
  }
  return node;
}
