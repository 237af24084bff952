/**
 * One framed event of a streaming body: an SSE event (`event:` + `data:`) or one element of a
 * streamed JSON array (then `event` is absent). `data` is the raw text; parse it where needed.
 */
export interface WireEvent {
  event?: string;
  data: string;
}

/** How a streaming body frames its events: SSE, or a streamed JSON array (Gemini without `alt=sse`). */
export type StreamFraming = 'sse' | 'json-array';
