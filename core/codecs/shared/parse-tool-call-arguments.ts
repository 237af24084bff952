import { parseToolJson } from '../../text/exact-json-numbers';
import { GatewayError } from '../../errors/gateway-error';
import { isJsonWhitespace } from '../../text/json-whitespace';
import { heldTooLong, MAX_EVENT_CHARS } from '../../sse/max-event-chars';
import { isJsonTextTooDeep, MAX_JSON_DEPTH, MAX_UPSTREAM_JSON_DEPTH } from '../../validation/scan-json-bytes';
import { isPlainObject } from './is-plain-object';

/**
 * A tool call's `arguments` (JSON text, as OpenAI sends it) → the object that Anthropic `input` and Gemini `args`
 * want. Empty text means `{}`. Text that is not a JSON object also becomes `{}`, and `onLoss` hears of it: it is
 * what a model wrote, often a call cut short by the output limit that the gateway itself handed the client, and
 * OpenAI takes any text there, so refusing it would fail every later turn of that conversation. Deeply nested
 * arguments overflowed the call stack once sent on as JSON: a client's (`field` given) past MAX_JSON_DEPTH are a 400
 * naming `field`, as a body that deep is; a model's, in an answer, past MAX_UPSTREAM_JSON_DEPTH, an upstream answer
 * the gateway cannot translate (502).
 */
export function parseToolCallArguments(text: string, onLoss?: () => void, field?: string): Record<string, unknown> {
  return readToolCallArguments(text, onLoss, field).args;
}

/**
 * As parseToolCallArguments, and whether the text was cut short: not JSON at all (`{"path":"a.txt","con`), as a
 * call stopped by the output limit leaves it. Whole JSON that is no object (`null`, `[]`, as some models write for
 * a function without parameters) is not.
 */
export function readToolCallArguments(text: string, onLoss?: () => void, field?: string): { args: Record<string, unknown>; cutShort: boolean } {
  if (text.trim() === '') return { args: {}, cutShort: false };
  // A client's arguments (`field` names them) are held to a request's limit; a model's own, in an answer, to an answer's.
  if (field !== undefined && isJsonTextTooDeep(text, MAX_JSON_DEPTH)) {
    throw new GatewayError('GW_INVALID_REQUEST', `${field}: nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`, { param: field });
  }
  if (field === undefined && isJsonTextTooDeep(text, MAX_UPSTREAM_JSON_DEPTH)) {
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream answered a tool call whose arguments nest deeper than ${MAX_UPSTREAM_JSON_DEPTH} levels of arrays and objects`);
  }
  let value: unknown;
  try {
    value = parseToolJson(text, 'whole');
  } catch {
    onLoss?.();
    return { args: {}, cutShort: true };
  }
  if (isPlainObject(value)) return { args: value, cutShort: false };
  onLoss?.();
  return { args: {}, cutShort: false };
}

/**
 * Whether a streamed call's arguments are whole yet: JSON that parses. Empty text is not (its deltas may follow).
 * Stream encoders keep a call open across other events until it is: an upstream may send text or reasoning between
 * two argument deltas of one call (some compatible services send a `"\n"` content delta there).
 */
export function areArgumentsWhole(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Follows a streamed call's arguments delta by delta and says, as areArgumentsWhole does, whether they are whole yet,
 * at a cost linear in their length: the text is scanned once for where its top-level object or array closes, and
 * parsed only then. (Parsing all of it on every delta was quadratic: 400 KB of a file Claude Code writes, in
 * 4-character deltas, held the event loop for 30 s.)
 */
export interface ArgumentsFollower {
  push(delta: string): void;
  whole(): boolean;
  /** The arguments so far. */
  readonly text: string;
}

/** The longest number or literal (`true`, `null`) arguments are taken to be. */
const MAX_SCALAR_CHARS = 64;

export function createArgumentsFollower(initial = ''): ArgumentsFollower {
  let text = '';
  /**
   * 0: no value yet; 1: inside an object, array or string; 2: it closed; 3: something else (a number, a literal, a stray
   * character), parsed on asking while it is short enough to be one.
   */
  let phase = 0;
  let depth = 0;
  let inString = false;
  /** The value is a string (not an object or array): its closing quote ends it. */
  let topString = false;
  let escaped = false;
  /** Text after the close (only blanks may follow). */
  let trailing = false;
  /** The verdict of the last parse, for the text's length then. */
  let parsedAt = -1;
  let parsed = false;
  const scan = (delta: string): void => {
    for (let i = 0; i < delta.length; i += 1) {
      const c = delta.charCodeAt(i);
      if (phase === 3) return;
      if (phase === 2) {
        if (!isJsonWhitespace(c)) trailing = true;
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) {
          inString = false;
          if (topString) phase = 2;
        }
        continue;
      }
      if (phase === 0) {
        if (isJsonWhitespace(c)) continue;
        if (c === 0x22) {
          // A string value: whole once its closing quote comes.
          phase = 1;
          inString = true;
          topString = true;
          continue;
        }
        if (c !== 0x7b && c !== 0x5b) {
          phase = 3;
          return;
        }
        phase = 1;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth += 1;
      else if (c === 0x7d || c === 0x5d) {
        depth -= 1;
        if (depth === 0) phase = 2;
      }
    }
  };
  const follower: ArgumentsFollower = {
    push(delta) {
      // Held whole until they are (a client's call needs all of its arguments): an upstream's endless arguments fail the
      // answer past the bound of one event, where they grew the heap until V8's longest string failed it as a 500.
      if (text.length + delta.length > MAX_EVENT_CHARS) throw heldTooLong('tool call arguments');
      text += delta;
      scan(delta);
    },
    whole() {
      // A number or literal is short; past that it can be none, and is not parsed again on every delta.
      if (phase === 0 || phase === 1 || trailing || (phase === 3 && text.length > MAX_SCALAR_CHARS)) return false;
      if (parsedAt !== text.length) {
        parsedAt = text.length;
        parsed = areArgumentsWhole(text);
      }
      return parsed;
    },
    get text() {
      return text;
    },
  };
  if (initial !== '') follower.push(initial);
  return follower;
}
