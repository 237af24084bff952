/** Line starts to look for, as bytes, made once per list (see compileLineStarts). */
export interface LineStarts {
  readonly starts: readonly Buffer[];
  /** Which first bytes begin one of them: most lines are ruled out by their first byte. */
  readonly firstBytes: Uint8Array;
  readonly maxLength: number;
}

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);

export function compileLineStarts(starts: readonly string[]): LineStarts {
  const bytes = starts.map((start) => Buffer.from(start, 'latin1'));
  const firstBytes = new Uint8Array(256);
  for (const start of bytes) if (start.length > 0) firstBytes[start[0]] = 1;
  return { starts: bytes, firstBytes, maxLength: Math.max(0, ...bytes.map((start) => start.length)) };
}

/** What a line's first bytes say: none of the starts, one of them, or not yet (they end where one may still follow). */
const NO = 0;
const FOUND = 1;
const OPEN = 2;
type Verdict = typeof NO | typeof FOUND | typeof OPEN;

/**
 * Follows an SSE stream relayed byte for byte for a line that starts with one of `starts`, at a line's start only
 * (after LF or CR, or the stream's start): inside an event's JSON a line break is escaped, so model text cannot fake
 * one. A chunk may start or end anywhere, inside such a line too: the start of a line the chunk before left open is
 * kept. Returns whether the chunk given completes one. Per chunk: the line breaks are found by indexOf (memchr) and
 * only the lines whose first byte may begin a start are compared: a few bytes per line, no string made.
 */
export function createLineStartFinder(lineStarts: LineStarts): (chunk: Buffer) => boolean {
  /** The first bytes of a line begun in an earlier chunk that may still be a start; the stream's start is one. */
  let open: Buffer | undefined = EMPTY;
  return (chunk) => {
    let found = false;
    if (open !== undefined) {
      const line = open.length === 0 ? chunk : Buffer.concat([open, chunk.subarray(0, lineStarts.maxLength)]);
      const verdict = judge(line, 0, lineStarts);
      found = verdict === FOUND;
      open = verdict === OPEN ? Buffer.from(line) : undefined;
    }
    let lf = chunk.indexOf(LF);
    let cr = chunk.indexOf(CR);
    while (lf >= 0 || cr >= 0) {
      let at: number;
      if (cr < 0 || (lf >= 0 && lf < cr)) {
        at = lf;
        lf = chunk.indexOf(LF, at + 1);
      } else {
        at = cr;
        cr = chunk.indexOf(CR, at + 1);
      }
      const verdict = judge(chunk, at + 1, lineStarts);
      if (verdict === FOUND) found = true;
      // Only the chunk's last line can be left open; an earlier one ended at the next break.
      open = verdict === OPEN ? Buffer.from(chunk.subarray(at + 1)) : undefined;
    }
    return found;
  };
}

/** Whether the line at `from` in `bytes` (which may end before the line does) begins with one of the starts. */
function judge(bytes: Buffer, from: number, lineStarts: LineStarts): Verdict {
  if (from >= bytes.length) return OPEN;
  if (lineStarts.firstBytes[bytes[from]] === 0) return NO;
  const available = bytes.length - from;
  let verdict: Verdict = NO;
  for (const start of lineStarts.starts) {
    const length = Math.min(start.length, available);
    let same = true;
    for (let i = 0; i < length; i += 1) {
      if (bytes[from + i] !== start[i]) {
        same = false;
        break;
      }
    }
    if (!same) continue;
    if (length === start.length) return FOUND;
    verdict = OPEN;
  }
  return verdict;
}
