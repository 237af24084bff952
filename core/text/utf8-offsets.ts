/**
 * UTF-8 byte offsets of a string's UTF-16 offsets and back, for many conversions of one text (citations' spans, which
 * Gemini gives in bytes): one pass builds the table, and each conversion is a lookup or a binary search, where a walk
 * from the text's start for each span blocked the event loop for seconds on a long answer with many spans.
 */
export interface Utf8Offsets {
  /** The UTF-8 length of `text.slice(0, index)` (half a surrogate pair cut there counts as the replacement character). */
  byteAt(index: number): number;
  /**
   * The UTF-16 offset of UTF-8 offset `byte`, at a whole character, never between the halves of a surrogate pair: an
   * offset inside a character takes all of it (a start lands before it, an `end` after it).
   */
  charAt(byte: number, end: boolean): number;
}

/**
 * The table is built at the first conversion, not here: a streamed answer's decoder is handed each chunk's grounding
 * with the text so far, and most groundings cite no span (a table per chunk was quadratic in the answer's length).
 */
export function createUtf8Offsets(text: string): Utf8Offsets {
  let table: Utf8Offsets | undefined;
  return {
    byteAt: (index) => (table ??= buildUtf8Offsets(text)).byteAt(index),
    charAt: (byte, end) => (table ??= buildUtf8Offsets(text)).charAt(byte, end),
  };
}

function buildUtf8Offsets(text: string): Utf8Offsets {
  const length = text.length;
  /** Bytes before each UTF-16 offset, as byteAt answers it. */
  const before = new Float64Array(length + 1);
  /** UTF-16 offsets where a character starts, and the text's end. */
  const starts: number[] = [];
  let bytes = 0;
  for (let index = 0; index < length; index += 1) {
    before[index] = bytes;
    starts.push(index);
    const code = text.charCodeAt(index);
    const low = index + 1 < length ? text.charCodeAt(index + 1) : 0;
    if (code >= 0xd800 && code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
      // A pair is 4 bytes; cut between its halves, the high one alone is the replacement character's 3.
      before[index + 1] = bytes + 3;
      bytes += 4;
      index += 1;
    } else {
      bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    }
  }
  before[length] = bytes;
  starts.push(length);
  return {
    byteAt: (index) => before[Math.max(0, Math.min(length, Math.trunc(index) || 0))],
    charAt(byte, end) {
      // A span of no number given is past the text: it cites nothing.
      if (Number.isNaN(byte)) return length;
      // The first character start at or past `byte` (an end), or the last at or before it (a start).
      let low = 0;
      let high = starts.length - 1;
      if (end) {
        while (low < high) {
          const mid = (low + high) >>> 1;
          if (before[starts[mid]] >= byte) high = mid;
          else low = mid + 1;
        }
        return starts[low];
      }
      if (byte >= bytes) return length;
      while (low < high) {
        const mid = (low + high + 1) >>> 1;
        if (before[starts[mid]] <= byte) low = mid;
        else high = mid - 1;
      }
      return starts[low];
    },
  };
}
