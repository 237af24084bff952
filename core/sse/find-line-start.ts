/**
 * Follows an SSE stream relayed byte for byte for a line that starts with one of `starts`, at a line's start only
 * (after LF or CR, or the stream's start): inside an event's JSON a line break is escaped, so model text cannot fake
 * one. A chunk may start or end anywhere, inside such a line too: the last bytes of the one before are kept. Returns
 * whether the chunk given completes one.
 */
export function createLineStartFinder(starts: readonly string[]): (chunk: Buffer) => boolean {
  const marks = starts.flatMap((start) => [`\n${start}`, `\r${start}`]);
  const markBytes = marks.map((mark) => Buffer.from(mark));
  const keep = Math.max(1, ...marks.map((mark) => mark.length));
  // The stream's last bytes (latin1: one char per byte); a line break stands for the stream's start.
  let tail = '\n';
  return (chunk) => {
    // A start across the previous chunk and this one, or at this one's start after a break that ended the last.
    const joint = tail + chunk.toString('latin1', 0, Math.min(chunk.length, keep));
    const found = marks.some((mark) => joint.includes(mark)) || markBytes.some((mark) => chunk.includes(mark));
    tail = (tail + chunk.toString('latin1', Math.max(0, chunk.length - keep))).slice(-keep);
    return found;
  };
}
