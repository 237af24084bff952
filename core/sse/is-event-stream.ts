/** Whether a streamed body is SSE (or says nothing of its type); see upstreamStreamFraming for the rest. */
export function isEventStream(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return value === undefined || value.includes('text/event-stream');
}
