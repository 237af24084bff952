/** JSON's whitespace (RFC 8259: space, LF, CR, tab), by character or byte code; no other character is. */
export function isJsonWhitespace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
