/** The most an event's end takes: CRLF, then a blank CRLF line. */
const TAIL_BYTES = 4;
/** EF BB BF read as latin1; as a whole tail (3 of its 4 bytes), the stream holds nothing else. */
const UTF8_BOM = '\u00ef\u00bb\u00bf';

export interface EventBoundaryFollower {
  push(chunk: Buffer): void;
  /**
   * What must precede an event of our own so that it starts on an event boundary: '' when the bytes relayed end one,
   * the stream's own blank line when they end a line of an event not yet ended, undefined when they stop inside a
   * line. A line cut short (`data: {"text":"wor`) cannot be ended: whatever follows it becomes part of that event
   * and every SDK fails on it as bad JSON, so the connection is better dropped.
   */
  closingPrefix(): string | undefined;
}

/**
 * Follows where an SSE stream relayed byte for byte stands (between events, after a line, inside a line) from its
 * last bytes, without parsing it, so that an error event the gateway appends is read as an event of its own.
 */
export function createEventBoundaryFollower(): EventBoundaryFollower {
  let tail = '';
  return {
    push(chunk) {
      // latin1 maps each byte to one char: only CR and LF matter here.
      tail = (tail + chunk.toString('latin1', Math.max(0, chunk.length - TAIL_BYTES))).slice(-TAIL_BYTES);
    },
    closingPrefix() {
      return closingPrefix(tail);
    },
  };
}

/** See EventBoundaryFollower.closingPrefix; `tail` is the stream's last bytes. */
export function closingPrefix(tail: string): string | undefined {
  // Nothing yet, or only the byte order mark a stream may start with (parsers drop it).
  if (tail === '' || tail === UTF8_BOM) return '';
  // A CR may be the first half of a CRLF: a LF after it changes nothing for a parser that took the CR alone as the
  // line's end, and completes it for one that waits for CRLF (the Google SDK's event pattern).
  const prefix = tail.endsWith('\r') ? '\n' : '';
  const text = tail + prefix;
  if (!text.endsWith('\n')) return undefined;
  const eol = text.endsWith('\r\n') ? '\r\n' : '\n';
  const before = text.slice(0, -eol.length);
  const atBoundary = before === '' || before.endsWith('\n') || before.endsWith('\r');
  return atBoundary ? prefix : prefix + eol;
}
