const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, read from its bytes before any parse: parsing a
 * body of millions of `[` costs seconds of the event loop and gigabytes of memory first. Strings are skipped whole
 * (`indexOf` to their closing quote), so the loop touches only the structure of text-heavy bodies. Not a validator:
 * malformed JSON answers false and is left to the parser's own error.
 */
export function isNestedDeeperInBytes(bytes: Buffer, limit: number): boolean {
  let depth = 0;
  const length = bytes.length;
  for (let i = 0; i < length; i += 1) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      i = closingQuote(bytes, i);
      if (i < 0) return false;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth += 1;
      if (depth > limit) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
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
