/**
 * One framed event of a streaming body: an SSE event (`event:` + `data:`) or one element of a
 * streamed JSON array (then `event` is absent). `data` is the raw text; parse it where needed.
 */
export interface WireEvent {
  event?: string;
  data: string;
}
