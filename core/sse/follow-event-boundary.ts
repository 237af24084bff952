import { isWholeEventData } from './is-whole-event-data';
import { eventTooLarge, MAX_EVENT_CHARS } from './max-event-chars';

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
  /**
   * Inside a line (closingPrefix undefined), what ends that line and its event when the line is a whole `data:` line
   * (its JSON or `[DONE]` complete, the line end not yet come); undefined when it was cut short.
   */
  wholeLineEnd(): string | undefined;
  /** The line the relayed bytes stop inside, as far as it came; undefined when they end a line. */
  openLine(): string | undefined;
}

/**
 * Follows where an SSE stream relayed byte for byte stands (between events, after a line, inside a line) from its
 * last bytes, without parsing it, so that an error event the gateway appends is read as an event of its own. It keeps
 * the line still open, so a line longer than MAX_EVENT_CHARS throws GW_UPSTREAM_BAD_RESPONSE from `push`, as the
 * parsers do: an upstream's endless line (a few KB of gzip inflate to gigabytes) was held whole, and took the process.
 */
export function createEventBoundaryFollower(): EventBoundaryFollower {
  // The last chunks, as they came (no copy), reaching at least OPEN_EVENT_BYTES back and to the start of the line
  // still open; read only when the stream fails.
  const recent: Buffer[] = [];
  let recentBytes = 0;
  let totalBytes = 0;
  // The chunk of `recent` where the open line starts (it holds the last line break, or is the stream's first).
  let openLineFrom = 0;
  /** Bytes of the open line so far (after the last line break). */
  let openLineBytes = 0;
  /** The open line passed the bound: thrown once; what comes after (bytes a masker held back) is not followed. */
  let overlong = false;
  const recentText = (): string => Buffer.concat(recent).toString('latin1');
  /** The stream's last TAIL_BYTES bytes as latin1 (one char per byte: only CR and LF matter here). */
  const tail = (): string => {
    let text = '';
    for (let at = recent.length - 1; at >= 0 && text.length < TAIL_BYTES; at -= 1) {
      const chunk = recent[at];
      text = chunk.toString('latin1', Math.max(0, chunk.length - (TAIL_BYTES - text.length))) + text;
    }
    return text;
  };
  const opensEmptyEvent = (): boolean => openEventLacksData(recentText(), recentBytes === totalBytes);
  return {
    push(chunk) {
      if (overlong) return;
      recent.push(chunk);
      recentBytes += chunk.length;
      totalBytes += chunk.length;
      const lineStart = Math.max(chunk.lastIndexOf(0x0a), chunk.lastIndexOf(0x0d)) + 1;
      if (lineStart > 0) {
        openLineFrom = recent.length - 1;
        openLineBytes = chunk.length - lineStart;
      } else {
        openLineBytes += chunk.length;
      }
      if (openLineBytes > MAX_EVENT_CHARS) {
        overlong = true;
        throw eventTooLarge();
      }
      while (openLineFrom > 0 && recentBytes - recent[0].length >= OPEN_EVENT_BYTES) {
        recentBytes -= recent.shift()!.length;
        openLineFrom--;
      }
    },
    closingPrefix() {
      return closingPrefix(tail());
    },
    opensEmptyEvent,
    joiningPrefix() {
      const last = tail();
      if (!opensEmptyEvent()) return closingPrefix(last);
      // Only the LF that completes a CRLF the stream's last CR may have begun.
      return last.endsWith('\r') ? '\n' : '';
    },
    wholeLineEnd() {
      return wholeLineEnd(recentText(), recentBytes === totalBytes);
    },
    openLine() {
      if (closingPrefix(tail()) !== undefined) return undefined;
      const text = recentText();
      return text.slice(Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1);
    },
  };
}

/**
 * See EventBoundaryFollower.wholeLineEnd; `text` holds the stream's last bytes back to the open line's start (its
 * whole, `fromStart`). The line and its event end in the stream's own style (CRLF when its last line ended so).
 */
export function wholeLineEnd(text: string, fromStart: boolean): string | undefined {
  const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  if (lastBreak < 0 && !fromStart) return undefined;
  const line = text.slice(lastBreak + 1).replace(fromStart && lastBreak < 0 ? UTF8_BOM : '', '');
  const data = /^data: ?(.*)$/.exec(line)?.[1];
  if (data === undefined || !isWholeEventData(data)) return undefined;
  const eol = text.endsWith('\r\n', lastBreak + 1) ? '\r\n' : '\n';
  return eol + eol;
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
