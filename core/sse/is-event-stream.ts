const EVENT_STREAM = /text\/event-stream/i;

/** Whether a streamed body is SSE (or says nothing of its type); see upstreamStreamFraming for the rest. */
export function isEventStream(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  // Media types are case-insensitive (RFC 9110 §8.3.1): `Text/Event-Stream` is one too.
  return value === undefined || EVENT_STREAM.test(value);
}
