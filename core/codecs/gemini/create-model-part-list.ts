import type { GeminiPart } from './gemini-types';

/** Model parts in the order they are added, with each thought signature where Gemini puts it. */
export interface ModelPartList {
  /** Appends a part. A signature held back goes on it, unless it has its own; then that one goes first on an empty text part. */
  add(part: GeminiPart): void;
  /** A reasoning part with a signature and no text: the signature is held back for the part that follows. */
  holdSignature(signature: string): void;
  /** The parts, with a signature still held back on an empty text part at the end, as Gemini itself ends streams. */
  finish(): GeminiPart[];
}

/**
 * Gemini sends a thought signature on the part after its reasoning (the decoders split it off that part), so the
 * request and response encoders put it back there the same way.
 */
export function createModelPartList(): ModelPartList {
  const parts: GeminiPart[] = [];
  let held: string | undefined;
  const release = (): void => {
    if (held !== undefined) parts.push({ text: '', thoughtSignature: held });
    held = undefined;
  };
  return {
    add(part) {
      if (held !== undefined && part.thoughtSignature === undefined) {
        part.thoughtSignature = held;
        held = undefined;
      }
      release();
      parts.push(part);
    },
    holdSignature(signature) {
      release();
      held = signature;
    },
    finish() {
      release();
      return parts;
    },
  };
}
