import type { WireFormat } from '../unified/unified-request';

/**
 * Lines that open the last event of an SSE stream, per format: nothing follows chat's `[DONE]`, Anthropic's
 * `message_stop`, a Responses terminal event, or an error event of either.
 */
const END_LINES: Partial<Record<WireFormat, readonly string[]>> = {
  'chat-completions': ['data: [DONE]'],
  messages: ['event: message_stop', 'event: error'],
  // Not `error`: a proxy may follow it with `response.failed`.
  responses: ['event: response.completed', 'event: response.incomplete', 'event: response.failed'],
};

/** Each end line also without the space after its colon, which SSE makes optional (`data:[DONE]`). */
function spellings(line: string): string[] {
  return [line, line.replace(': ', ':')];
}
/** Gemini has no end line: its last chunk carries the candidate's finishReason (quoted as a key: model text escapes its quotes). */
const GEMINI_FINISH = Buffer.from('"finishReason"');

export interface StreamEndFollower {
  push(chunk: Buffer): void;
  /** The stream's last event has begun: its end line (or Gemini's finishReason) has been relayed. */
  ended(): boolean;
  /** Whether the format has an end line, so that the stream is whole once the event it opens is. */
  readonly hasEndLine: boolean;
}

/**
 * Follows whether an SSE stream relayed byte for byte has reached its last event, without parsing it: an upstream
 * may hold the stream open after it, and the client's answer is then complete, not cut short. At a line's start only:
 * inside an event's JSON a line break is escaped, so model text cannot fake one.
 */
export function createStreamEndFollower(format: WireFormat): StreamEndFollower {
  const lines = (END_LINES[format] ?? []).flatMap(spellings).map((line) => [Buffer.from(line), Buffer.from(`\n${line}`)] as const);
  const gemini = format === 'gemini';
  let ended = false;
  // A chunk starts a line only when the one before ended one: a long event may be split anywhere, model text included.
  let atLineStart = true;
  return {
    hasEndLine: lines.length > 0,
    push(chunk) {
      if (ended || chunk.length === 0) return;
      const startsLine = atLineStart;
      const last = chunk[chunk.length - 1];
      atLineStart = last === 0x0a || last === 0x0d;
      ended = gemini
        ? chunk.includes(GEMINI_FINISH)
        : lines.some(([atStart, afterLine]) => (startsLine && chunk.subarray(0, atStart.length).equals(atStart)) || chunk.includes(afterLine));
    },
    ended: () => ended,
  };
}
