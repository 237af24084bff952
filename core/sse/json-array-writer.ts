export interface JsonArrayWriter {
  /** The text to write for the next element (already serialised JSON). */
  element(json: string): string;
  /** The text that closes the array; `[]` when no element was written. */
  close(): string;
}

/**
 * Writes a top-level JSON array element by element, the body shape of Gemini's
 * `:streamGenerateContent` without `alt=sse`.
 */
export function createJsonArrayWriter(): JsonArrayWriter {
  let opened = false;
  return {
    element(json) {
      if (opened) return `,\r\n${json}`;
      opened = true;
      return `[${json}`;
    },
    close() {
      return opened ? ']' : '[]';
    },
  };
}
