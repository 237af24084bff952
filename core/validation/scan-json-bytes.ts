const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * How deep JSON the gateway reads may nest arrays and objects (the value itself is level 1): a request body, and the
 * JSON a client puts in a string (tool-call arguments, tool results) that a translation parses and sends on as JSON.
 * Real traffic stays within 10–30 levels; the gateway's recursive code (the codecs' schema converters, JSON.stringify
 * of the upstream body) overflows the call stack from a few thousand, which answered a 500.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * How deep an upstream's answer may nest: it wraps what a request may send (tools echoed back, a call's arguments) in
 * an envelope of its own, so twice the request's limit, still far below where the recursive code overflows. Deeper
 * is an answer the gateway cannot translate (a 502, or the stream's error event), where it was a 500 or an empty 200.
 */
export const MAX_UPSTREAM_JSON_DEPTH = 2 * MAX_JSON_DEPTH;

/** Digits a double holds exactly: a shorter number without an exponent cannot overflow. */
const SHORT_NUMBER = 15;

/** What a JSON body holds that the gateway refuses before parsing it (see scanJsonBytes). */
export type JsonHazard = { kind: 'too-deep' } | { kind: 'number-overflow'; number: string };

/**
 * Reads JSON text's bytes, before any parse, for what the gateway refuses in every body:
 * - arrays and objects nested deeper than `maxDepth`: parsing a body of millions of `[` costs seconds of the event
 *   loop and gigabytes of memory first;
 * - a number too large for a double (`1e309`, 400 digits): JSON.parse reads it as Infinity, which JSON.stringify
 *   then sends upstream as `null`, in a tool's schema as anywhere else.
 * Strings are skipped whole (`indexOf` to their closing quote) and short numbers at a glance, so the loop touches
 * little of a text-heavy body (a 120 KB Claude Code body: ~30 µs). Not a validator: malformed JSON is left to the
 * parser's own error.
 */
export function scanJsonBytes(bytes: Buffer, maxDepth: number): JsonHazard | undefined {
  let depth = 0;
  const length = bytes.length;
  for (let i = 0; i < length; i += 1) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      i = closingQuote(bytes, i);
      if (i < 0) return undefined;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth += 1;
      if (depth > maxDepth) return { kind: 'too-deep' };
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth -= 1;
    } else if (byte === MINUS || (byte >= ZERO && byte <= NINE)) {
      const end = numberEnd(bytes, i);
      if (end - i > SHORT_NUMBER || hasExponent(bytes, i, end)) {
        const number = bytes.toString('latin1', i, end);
        // Infinity only: a malformed number (`1e5e5`, NaN) is the parser's to refuse, as invalid JSON.
        if (Math.abs(Number(number)) === Infinity) return { kind: 'number-overflow', number: number.length > 40 ? `${number.slice(0, 37)}...` : number };
      }
      i = end - 1;
    }
  }
  return undefined;
}

/** The index after the number token starting at `start` (digits, sign, point, exponent). */
function numberEnd(bytes: Buffer, start: number): number {
  let at = start + 1;
  while (at < bytes.length) {
    const byte = bytes[at];
    if ((byte >= ZERO && byte <= NINE) || byte === 0x2e || byte === 0x65 || byte === 0x45 || byte === 0x2b || byte === MINUS) at += 1;
    else break;
  }
  return at;
}

function hasExponent(bytes: Buffer, start: number, end: number): boolean {
  for (let at = start; at < end; at += 1) if (bytes[at] === 0x65 || bytes[at] === 0x45) return true;
  return false;
}

/** The index of the quote that closes the string opened at `open` (one not escaped by an odd run of backslashes). */
function closingQuote(bytes: Buffer, open: number): number {
  let at = open;
  for (;;) {
    at = bytes.indexOf(QUOTE, at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
}

/**
 * Whether JSON text (a client's string holding JSON, an upstream's event) nests arrays and objects deeper than
 * `maxDepth`. Strings are skipped whole (indexOf to their closing quote), so a long text value costs little.
 */
export function isJsonTextTooDeep(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuoteIn(text, i);
      if (i < 0) return false;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth -= 1;
  }
  return false;
}

/**
 * As isJsonTextTooDeep, for text used only if it parses (an upstream's body or event): JSON that parses needs a closing
 * bracket for each opening one, so text up to twice `maxDepth` long cannot be too deep and is not scanned (the scan
 * costs half a parse of a short event).
 */
export function isParsableJsonTooDeep(text: string, maxDepth: number): boolean {
  return text.length > 2 * maxDepth && isJsonTextTooDeep(text, maxDepth);
}

/** As closingQuote, in a string. */
function closingQuoteIn(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
}
