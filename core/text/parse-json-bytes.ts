import { decodeUtf8 } from './utf8';
import { isJsonWhitespace } from './json-whitespace';

/**
 * Bodies from this size on are parsed in pieces. V8 makes a string of over 128 KB (a two-byte one from 64 KB of text
 * on) a large object, on pages mapped for it alone and unmapped after: a 200 KB body's text cost ~58 page faults per
 * request (130–200 µs of system time at c16, measured), and when a scavenge ran during its JSON.parse it was promoted
 * to the old generation, where it stayed until the next full GC. The pieces cost scavenges instead (README, Memory).
 */
const PIECES_MIN_BYTES = 64 * 1024;
/** Each piece's text stays a regular object, two-byte included. */
const PIECE_BYTES = 32 * 1024;
/** Only values this deep are split; deeper ones are parsed whole (a long conversation is split at depth 1 or 2). */
const MAX_SPLIT_DEPTH = 4;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const PLACEHOLDER = Buffer.from('0');
/**
 * A run of array elements is copied here between `[` and `]` and decoded from here: one string per run, where
 * `[${text}]` would make two (the pieces, then their flattened copy), and more scavenges with them.
 */
const runBytes = Buffer.allocUnsafeSlow(PIECE_BYTES + 2);

/** Thrown by the scan when the bytes are not what it splits; the caller then parses them whole. */
class NotSplit extends Error {}

/**
 * `JSON.parse(decodeUtf8(bytes))`, the same value and the same errors, without one string of the whole body when
 * it is large: the elements of its long arrays and the large members of its objects are decoded and parsed a few
 * at a time, so that no text over 32 KB is made (unless one string alone is that long). Anything the scan does not
 * expect (invalid JSON included) is parsed whole, which throws JSON.parse's own error.
 */
export function parseJsonBytes(bytes: Buffer): unknown {
  if (bytes.length >= PIECES_MIN_BYTES) {
    try {
      // The body's value is found by its ends, not by a scan of its own: the scan that splits it checks that its
      // closing bracket is the last byte, so trailing text is not split either.
      let end = bytes.length;
      while (isJsonWhitespace(bytes[end - 1])) end -= 1;
      return parseValue(bytes, skipWhitespace(bytes, 0), end, 0);
    } catch {
      // Not split: parsed whole below, with JSON.parse's own error if it is not JSON.
    }
  }
  return JSON.parse(decodeUtf8(bytes));
}

function parseWhole(bytes: Buffer, start: number, end: number): unknown {
  return JSON.parse(decodeUtf8(bytes.subarray(start, end)));
}

function parseValue(bytes: Buffer, start: number, end: number, depth: number): unknown {
  if (end - start < PIECE_BYTES || depth >= MAX_SPLIT_DEPTH) return parseWhole(bytes, start, end);
  if (bytes[start] === OPEN_BRACKET) return parseArray(bytes, start, end, depth);
  if (bytes[start] === OPEN_BRACE) return parseObject(bytes, start, end, depth);
  return parseWhole(bytes, start, end);
}

/** Small elements in runs of up to PIECE_BYTES, each run one `JSON.parse`; a large element on its own. */
function parseArray(bytes: Buffer, start: number, end: number, depth: number): unknown[] {
  const result: unknown[] = [];
  let runStart = -1;
  let runEnd = -1;
  const flush = (): void => {
    if (runStart < 0) return;
    runBytes[0] = OPEN_BRACKET;
    const length = bytes.copy(runBytes, 1, runStart, runEnd) + 2;
    runBytes[length - 1] = CLOSE_BRACKET;
    const run = JSON.parse(decodeUtf8(runBytes.subarray(0, length))) as unknown[];
    for (let i = 0; i < run.length; i += 1) result.push(run[i]);
    runStart = -1;
  };
  let i = skipWhitespace(bytes, start + 1);
  if (i === end - 1 && bytes[i] === CLOSE_BRACKET) return result;
  for (;;) {
    const elementEnd = valueEnd(bytes, i);
    if (elementEnd - i >= PIECE_BYTES) {
      flush();
      result.push(parseValue(bytes, i, elementEnd, depth + 1));
    } else {
      if (runStart >= 0 && elementEnd - runStart > PIECE_BYTES) flush();
      if (runStart < 0) runStart = i;
      runEnd = elementEnd;
    }
    i = nextMember(bytes, elementEnd, CLOSE_BRACKET, end);
    if (i < 0) break;
  }
  flush();
  return result;
}

/**
 * The object without its large values (each replaced by `0`) is parsed as one text, which keeps JSON.parse's key
 * order; each large value is then parsed on its own and set in its place (an own property, `__proto__` included,
 * since JSON.parse made it one). A large value whose key occurs twice might not be the one JSON.parse keeps: such an
 * object is parsed whole.
 */
function parseObject(bytes: Buffer, start: number, end: number, depth: number): Record<string, unknown> {
  const keys: string[] = [];
  const large: Array<{ key: string; start: number; end: number }> = [];
  let i = skipWhitespace(bytes, start + 1);
  if (bytes[i] !== CLOSE_BRACE) {
    for (;;) {
      if (bytes[i] !== QUOTE) throw new NotSplit();
      const keyEnd = stringEnd(bytes, i);
      const key = JSON.parse(bytes.toString('utf8', i, keyEnd)) as string;
      keys.push(key);
      const colon = skipWhitespace(bytes, keyEnd);
      if (bytes[colon] !== COLON) throw new NotSplit();
      const valueStart = skipWhitespace(bytes, colon + 1);
      const memberEnd = valueEnd(bytes, valueStart);
      if (memberEnd - valueStart >= PIECE_BYTES) large.push({ key, start: valueStart, end: memberEnd });
      i = nextMember(bytes, memberEnd, CLOSE_BRACE, end);
      if (i < 0) break;
    }
  }
  if (large.length === 0) return parseWhole(bytes, start, end) as Record<string, unknown>;
  for (const member of large) if (keys.indexOf(member.key) !== keys.lastIndexOf(member.key)) throw new NotSplit();
  const parts: Buffer[] = [];
  let from = start;
  for (const member of large) {
    parts.push(bytes.subarray(from, member.start), PLACEHOLDER);
    from = member.end;
  }
  parts.push(bytes.subarray(from, end));
  const result = JSON.parse(decodeUtf8(Buffer.concat(parts))) as Record<string, unknown>;
  for (const member of large) result[member.key] = parseValue(bytes, member.start, member.end, depth + 1);
  return result;
}

/**
 * After an element or member ending at `memberEnd`: where the next one starts, or -1 at the closing bracket, which
 * must be the container's last byte (`end - 1`).
 */
function nextMember(bytes: Buffer, memberEnd: number, close: number, end: number): number {
  const next = skipWhitespace(bytes, memberEnd);
  if (bytes[next] === COMMA) return skipWhitespace(bytes, next + 1);
  if (bytes[next] === close && next === end - 1) return -1;
  throw new NotSplit();
}

/** Where the JSON value starting at `i` ends (exclusive). Checks only what it needs to find that end. */
function valueEnd(bytes: Buffer, i: number): number {
  const first = bytes[i];
  if (first === QUOTE) return stringEnd(bytes, i);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let k = i; k < bytes.length; ) {
      const c = bytes[k];
      if (c === QUOTE) {
        k = stringEnd(bytes, k);
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth += 1;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return k + 1;
      k += 1;
    }
    throw new NotSplit();
  }
  // A number, true, false or null: up to the next delimiter; JSON.parse checks it.
  if (!isLiteralStart(first)) throw new NotSplit();
  let k = i + 1;
  while (k < bytes.length && !isDelimiter(bytes[k])) k += 1;
  return k;
}

/** Past the closing quote of the string opening at `i`. Long strings are skipped with indexOf. */
function stringEnd(bytes: Buffer, i: number): number {
  let k = i + 1;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, k);
    if (quote < 0) throw new NotSplit();
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    k = quote + 1;
  }
}

/** `-`, a digit, or the first letter of true, false or null. */
function isLiteralStart(c: number | undefined): boolean {
  return c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isJsonWhitespace(c);
}


function skipWhitespace(bytes: Buffer, i: number): number {
  while (isJsonWhitespace(bytes[i])) i += 1;
  return i;
}
