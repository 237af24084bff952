import { fnv1aHex } from './fnv1a-hex';

/** A stable id for a response that came without `responseId`, from its text, so replays agree. */
export function synthesizeResponseId(text: string): string {
  return `gemini-${fnv1aHex(text)}`;
}
