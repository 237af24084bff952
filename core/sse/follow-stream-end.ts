import type { WireFormat } from '../unified/unified-request';
import { compileLineStarts, createLineStartFinder, type LineStarts } from './find-line-start';
import { createSseParser } from './parse-sse';

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

/**
 * Chat's answer is complete once its choice has a `finish_reason` (the usage chunk and `[DONE]` may still come, or
 * not: some services hold the stream open after it). As bytes: inside a JSON string a quote is escaped, so model
 * text cannot fake the key with a string value after it; the value must start with a letter (Ollama and sglang send
 * `""` on every chunk).
 */
const FINISH_MARKS: Partial<Record<WireFormat, readonly string[]>> = {
  'chat-completions': ['"finish_reason":"', '"finish_reason": "'],
  // `message_delta` gives the stop reason (`message_start` has it null): message_stop may still come, or not.
  messages: ['"stop_reason":"', '"stop_reason": "'],
};
const FINISH_IN_TEXT = /"(?:finish|stop)_reason": ?"[A-Za-z]/;

/**
 * Whether `bytes` hold a finish mark followed by a letter (either case: a service may write `STOP`). The marks end in
 * the value's quote, so a chunk of many events (each with `"finish_reason":null`) is searched for the real one only.
 */
function hasFinishMark(bytes: Buffer, marks: readonly Buffer[]): boolean {
  for (const mark of marks) {
    for (let at = bytes.indexOf(mark); at >= 0; at = bytes.indexOf(mark, at + 1)) {
      const next = bytes[at + mark.length] | 0x20;
      if (next >= 0x61 && next <= 0x7a) return true;
    }
  }
  return false;
}

/**
 * A Responses stream may give its events without `event:` lines (the `type` in the data names them): its terminal
 * event is then known by its type. As bytes: inside a JSON string a quote is escaped, so text cannot fake it.
 */
const END_MARKS: Partial<Record<WireFormat, readonly string[]>> = {
  responses: ['response.completed', 'response.incomplete', 'response.failed'].flatMap((type) => [`"type":"${type}"`, `"type": "${type}"`]),
};

/** Each end line also without the space after its colon, which SSE makes optional (`data:[DONE]`). */
function spellings(line: string): string[] {
  return [line, line.replace(': ', ':')];
}

/** A format's end lines and marks as bytes, made once. */
interface EndBytes {
  lines: LineStarts;
  hasEndLine: boolean;
  marks: Buffer[];
  finishMarks: Buffer[];
  /** Bytes of the stream kept from one chunk to the next: enough to see a mark or a finish across the two. */
  keep: number;
}

const END_BYTES = new Map<WireFormat, EndBytes>();

function endBytesOf(format: WireFormat): EndBytes {
  let known = END_BYTES.get(format);
  if (known === undefined) {
    const lines = (END_LINES[format] ?? []).flatMap(spellings);
    const marks = (END_MARKS[format] ?? []).map((mark) => Buffer.from(mark));
    const finishMarks = (FINISH_MARKS[format] ?? []).map((mark) => Buffer.from(mark));
    // A finish mark's letter after it is kept too, to be seen across two chunks.
    const keep = Math.max(0, ...marks.map((mark) => mark.length - 1), ...finishMarks.map((mark) => mark.length));
    known = { lines: compileLineStarts(lines), hasEndLine: lines.length > 0, marks, finishMarks, keep };
    END_BYTES.set(format, known);
  }
  return known;
}

export interface StreamEndFollower {
  push(chunk: Buffer): void;
  /**
   * The stream's last event has begun: its end line has been relayed. Gemini: every candidate has had its
   * finishReason; asked once the body is over (it then reads a last event still waiting for its blank line).
   */
  ended(): boolean;
  /** Whether the format has an end line, so that the stream is whole once the event it opens is. */
  readonly hasEndLine: boolean;
  /**
   * The answer is complete though its last event may not have come (chat: every choice asked for has had its
   * `finish_reason`; Messages: `message_delta`'s stop reason): a stream that stalls or breaks now has lost nothing of
   * the answer. Implied by `ended()`.
   */
  finished(): boolean;
  /**
   * Finished by what reached the client whole, when the relayed bytes stop inside `openLine` (a cut): a finish the cut
   * line carried never arrived, and an end line is no end without its event's data.
   */
  finishedBefore(openLine: string): boolean;
}

/**
 * Follows whether an SSE stream relayed byte for byte has reached its last event, without parsing it: an upstream
 * may hold the stream open after it, and the client's answer is then complete, not cut short. At a line's start only
 * (after LF or CR, or the stream's start): inside an event's JSON a line break is escaped, so model text cannot fake
 * one. A chunk may start or end anywhere, inside a line or an end line: the last bytes of the one before are kept.
 */
export function createStreamEndFollower(format: WireFormat, choices = 1): StreamEndFollower {
  if (format === 'gemini') return createGeminiEndFollower();
  const follower = createEndLineFollower(format);
  return format === 'chat-completions' && choices > 1 ? withEveryChoiceFinished(follower, choices) : follower;
}

function createEndLineFollower(format: WireFormat): StreamEndFollower {
  const { lines, hasEndLine, marks, finishMarks, keep } = endBytesOf(format);
  const endLine = createLineStartFinder(lines);
  let ended = false;
  let finished = false;
  /**
   * The stream's last bytes after its last line break, for a mark across the chunk before and this one. No mark holds
   * a line break, so after a chunk that ends one (an upstream writing whole events, the common case) none is kept.
   */
  let tail: Buffer | undefined;
  const found = (bytes: Buffer): boolean => marks.some((mark) => bytes.includes(mark));
  return {
    hasEndLine,
    push(chunk) {
      if (ended || chunk.length === 0) return;
      // Only what spans the two chunks: a mark wholly in either is found there.
      const joint = tail !== undefined ? Buffer.concat([tail, chunk.subarray(0, keep)]) : undefined;
      ended = endLine(chunk) || (marks.length > 0 && (found(chunk) || (joint !== undefined && found(joint))));
      if (!finished && finishMarks.length > 0) finished = hasFinishMark(chunk, finishMarks) || (joint !== undefined && hasFinishMark(joint, finishMarks));
      tail = keep > 0 ? lastLineEnd(tail, chunk, keep) : undefined;
    },
    ended: () => ended,
    finished: () => ended || finished,
    finishedBefore: (openLine) => finished && !FINISH_IN_TEXT.test(openLine),
  };
}

/** The last `keep` bytes of the stream after its last line break (`tail` then `chunk`); undefined when there are none. */
function lastLineEnd(tail: Buffer | undefined, chunk: Buffer, keep: number): Buffer | undefined {
  const last = chunk[chunk.length - 1];
  if (last === 0x0a || last === 0x0d) return undefined;
  const lineStart = Math.max(chunk.lastIndexOf(0x0a), chunk.lastIndexOf(0x0d)) + 1;
  if (lineStart > 0 || tail === undefined || chunk.length >= keep) return Buffer.from(chunk.subarray(Math.max(lineStart, chunk.length - keep)));
  return Buffer.concat([tail, chunk]).subarray(-keep);
}

/**
 * A chat answer of several choices (`n` above 1) is finished once each of them has had its `finish_reason`: the byte
 * marks cannot tell whose finish they saw, so the events are parsed (a rare request; one choice's is not).
 */
function withEveryChoiceFinished(follower: StreamEndFollower, choices: number): StreamEndFollower {
  const finishedChoices = new Set<unknown>();
  const reader = createEventReader((events) => {
    for (const event of events) {
      const list = (parseJson(event.data) as { choices?: unknown } | undefined)?.choices;
      if (!Array.isArray(list)) continue;
      for (const choice of list) {
        const { index, finish_reason: reason } = (choice ?? {}) as { index?: unknown; finish_reason?: unknown };
        // As the byte marks: an empty finish_reason (Ollama, sglang) is none.
        if (typeof reason === 'string' && /^[A-Za-z]/.test(reason)) finishedChoices.add(index ?? 0);
      }
    }
  });
  // Asked once the stream broke off or closed: its last event counts though its blank line never came (its data line
  // ended; a line cut short is no JSON and counts for nothing).
  let lastRead = false;
  const allFinished = (): boolean => {
    if (!lastRead && finishedChoices.size < choices) reader.end();
    lastRead = true;
    return finishedChoices.size >= choices;
  };
  return {
    hasEndLine: follower.hasEndLine,
    ended: () => follower.ended(),
    push(chunk) {
      follower.push(chunk);
      if (!lastRead && finishedChoices.size < choices) reader.push(chunk);
    },
    finished: () => follower.ended() || allFinished(),
    finishedBefore: allFinished,
  };
}

/**
 * Parses the SSE events of a stream relayed as bytes, for `read`. An event too large for the parser stops the
 * reading (`readable` false): what the events were to tell is then not known.
 */
function createEventReader(read: (events: ReadonlyArray<{ data: string }>) => void): { push(chunk: Buffer): void; end(): void; readonly readable: boolean } {
  const parser = createSseParser();
  let readable = true;
  const attempt = (events: () => ReadonlyArray<{ data: string }>): void => {
    if (!readable) return;
    try {
      read(events());
    } catch {
      readable = false;
    }
  };
  return {
    push: (chunk) => attempt(() => parser.push(chunk)),
    end: () => attempt(() => parser.end()),
    get readable() {
      return readable;
    },
  };
}

/** JSON text's value, or undefined when it is not JSON. */
function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Follows a Gemini answer's chunks for whether it is whole: every candidate it streamed has had its `finishReason`,
 * or it answered a blocked prompt (one chunk, `promptFeedback.blockReason`, no candidate). Fed the chunks' JSON texts
 * (SSE events' data, or a streamed array's elements).
 */
export interface GeminiAnswerFollower {
  follow(events: ReadonlyArray<{ data: string }>): void;
  whole(): boolean;
}

export function createGeminiAnswerFollower(): GeminiAnswerFollower {
  const streaming = new Set<number>();
  const finished = new Set<number>();
  let blocked = false;
  const followOne = (data: string): void => {
    const chunk = parseJson(data);
    const feedback = (chunk as { promptFeedback?: { blockReason?: unknown } } | null)?.promptFeedback;
    if (typeof feedback?.blockReason === 'string' && feedback.blockReason !== '') blocked = true;
    const candidates = (chunk as { candidates?: unknown } | null)?.candidates;
    if (!Array.isArray(candidates)) return;
    for (const candidate of candidates) {
      if (typeof candidate !== 'object' || candidate === null) continue;
      const { index, finishReason } = candidate as { index?: unknown; finishReason?: unknown };
      const at = typeof index === 'number' ? index : 0;
      streaming.add(at);
      if (typeof finishReason === 'string' && finishReason !== '') finished.add(at);
    }
  };
  return {
    follow(events) {
      for (const event of events) followOne(event.data);
    },
    whole: () => blocked || (streaming.size > 0 && [...streaming].every((index) => finished.has(index))),
  };
}

/**
 * Gemini has no end line: its stream is over once its answer is whole (see createGeminiAnswerFollower). The events are
 * parsed for that (Gemini native streams only): the key alone in the bytes is no sign, a function call's `args` may
 * hold it as real JSON, and with `candidateCount` one candidate may finish while another still streams.
 */
function createGeminiEndFollower(): StreamEndFollower {
  const answer = createGeminiAnswerFollower();
  const reader = createEventReader((events) => answer.follow(events));
  let lastRead = false;
  return {
    hasEndLine: false,
    finished() {
      return this.ended();
    },
    // Read from events that parse: a cut last one does not count.
    finishedBefore() {
      return this.ended();
    },
    push(chunk) {
      if (!lastRead) reader.push(chunk);
    },
    // Asked once the body is over: its last event counts though its blank line never came.
    ended() {
      if (!lastRead) reader.end();
      lastRead = true;
      return reader.readable && answer.whole();
    },
  };
}
