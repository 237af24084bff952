/** `"sequence_number": N` as Responses events carry it (JSON string values escape their quotes, so text cannot fake it). */
const SEQUENCE_NUMBER = /"sequence_number"\s*:\s*(\d+)/g;
/** Enough of the previous chunk to complete a marker and its digits cut by a chunk boundary. */
const CARRY_CHARS = 48;

export interface SequenceFollower {
  push(chunk: Buffer): void;
  /** One past the highest `sequence_number` relayed so far (0 before any): what an event of our own must carry. */
  readonly next: number;
}

/**
 * Follows the numbering of a Responses stream relayed byte for byte, without parsing its events, so that an error
 * event the gateway appends continues it (the numbers run from 0 upward with no gaps).
 */
export function createSequenceFollower(): SequenceFollower {
  let next = 0;
  let carry = '';
  return {
    push(chunk) {
      // latin1 maps each byte to one char: the marker is ASCII, and no UTF-8 sequence has to be whole.
      const text = carry + chunk.toString('latin1');
      for (const match of text.matchAll(SEQUENCE_NUMBER)) next = Math.max(next, Number(match[1]) + 1);
      carry = text.slice(-CARRY_CHARS);
    },
    get next() {
      return next;
    },
  };
}
