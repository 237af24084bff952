/**
 * Where the answer's text (the unified text deltas or text parts, joined: UnifiedCitation offsets) landed in a client
 * format's own texts: a chat message's `content`, the `output_text` of each Responses message item. A format may put
 * text of its own between the pieces (an image as markdown) or elsewhere (a refusal): offsets move accordingly.
 */
export interface TextOffsetMap<Key> {
  /** The next piece of the answer's text, `length` long; `at` is where it went in the client's text (none: nowhere). */
  add(length: number, at?: { key: Key; offset: number }): void;
  /** The client's text and offsets holding `start`..`end` of the answer's text, cut to the piece `start` is in. */
  locate(start: number, end: number): { key: Key; start: number; end: number } | undefined;
}

export function createTextOffsetMap<Key>(): TextOffsetMap<Key> {
  const pieces: Array<{ from: number; length: number; key: Key; offset: number }> = [];
  let total = 0;
  return {
    add(length, at) {
      if (length > 0 && at) {
        // Pieces that follow each other in both texts are one: a citation spans many streamed deltas.
        const last = pieces.at(-1);
        if (last && last.key === at.key && last.from + last.length === total && last.offset + last.length === at.offset) last.length += length;
        else pieces.push({ from: total, length, key: at.key, offset: at.offset });
      }
      total += length;
    },
    locate(start, end) {
      const piece = pieces.find((p) => start >= p.from && start < p.from + p.length);
      if (!piece) return undefined;
      const stop = Math.min(end, piece.from + piece.length);
      return { key: piece.key, start: piece.offset + (start - piece.from), end: piece.offset + (stop - piece.from) };
    },
  };
}
