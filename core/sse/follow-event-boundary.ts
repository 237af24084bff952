/** The most an event's end takes: CRLF, then a blank CRLF line. */
const TAIL_BYTES = 4;
/** How far back an open event's lines are read for a `data` line: an event longer than this has one. */
const OPEN_EVENT_BYTES = 1024;
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
  /**
   * The event left open has an `event:` line and no data yet: ended as it is, the OpenAI and Anthropic SDKs get an
   * event with empty data and fail on it as bad JSON.
   */
  opensEmptyEvent(): boolean;
  /**
   * What must precede the lines of an event of our own: as closingPrefix, except after an event left open with no data
   * yet, which our lines then complete (our `event:` line, the later one, names it).
   */
  joiningPrefix(): string | undefined;
}

/**
 * Follows where an SSE stream relayed byte for byte stands (between events, after a line, inside a line) from its
 * last bytes, without parsing it, so that an error event the gateway appends is read as an event of its own.
 */
export function createEventBoundaryFollower(): EventBoundaryFollower {
  let tail = '';
  // The last chunks, as they came (no copy), reaching at least OPEN_EVENT_BYTES back; read only when the stream fails.
  let recent: Buffer[] = [];
  let recentBytes = 0;
  let totalBytes = 0;
  const opensEmptyEvent = (): boolean => openEventLacksData(Buffer.concat(recent).toString('latin1'), recentBytes === totalBytes);
  return {
    push(chunk) {
      // latin1 maps each byte to one char: only CR and LF matter here.
      tail = (tail + chunk.toString('latin1', Math.max(0, chunk.length - TAIL_BYTES))).slice(-TAIL_BYTES);
      recent.push(chunk);
      recentBytes += chunk.length;
      totalBytes += chunk.length;
      while (recent.length > 1 && recentBytes - recent[0].length >= OPEN_EVENT_BYTES) recentBytes -= recent.shift()!.length;
    },
    closingPrefix() {
      return closingPrefix(tail);
    },
    opensEmptyEvent,
    joiningPrefix() {
      const prefix = closingPrefix(tail);
      if (!opensEmptyEvent()) return prefix;
      // Only the LF that completes a CRLF the stream's last CR may have begun.
      return tail.endsWith('\r') ? '\n' : '';
    },
  };
}

/**
 * Whether `text`, a stream's last bytes (its whole, `fromStart`), ends after a line of an event that has an `event:`
 * line and no `data` line. False inside a line, between events, or when the event began before the bytes given.
 */
export function openEventLacksData(text: string, fromStart: boolean): boolean {
  const lines = (fromStart && text.startsWith(UTF8_BOM) ? text.slice(UTF8_BOM.length) : text).split(/\r\n|\r|\n/);
  // The last piece is the line still open: none when the text ends after a line.
  if (lines.pop() !== '') return false;
  // Bytes from a stream's middle start inside a line.
  const first = fromStart ? 0 : 1;
  let named = false;
  for (let at = lines.length - 1; at >= first; at--) {
    const line = lines[at];
    if (line === '') return named;
    if (/^data(?::|$)/.test(line)) return false;
    if (/^event:/.test(line)) named = true;
  }
  return fromStart && named;
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
