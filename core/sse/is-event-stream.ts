/** Whether a streamed body is SSE; anything else a platform streams is a JSON array (Gemini without `alt=sse`). */
export function isEventStream(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return value === undefined || value.includes('text/event-stream');
}
