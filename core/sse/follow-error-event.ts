import { compileLineStarts, createLineStartFinder } from './find-line-start';

/**
 * Lines that open an upstream's own error event in an SSE stream relayed as it is (Anthropic and Responses
 * `event: error`, Responses `response.failed` or a data-only `{"type":"error"…`, chat and Gemini `data: {"error"…`),
 * for the access line and so that no error of ours follows it.
 */
const ERROR_EVENT_STARTS = compileLineStarts(
  ['event: error', 'event: response.failed', 'data: {"error"', 'data: {"type":"error"', 'data: {"type": "error"']
    // Each also without the space after its colon, which SSE makes optional (`data:{"error"…`).
    .flatMap((start) => [start, start.replace(': ', ':')]),
);

/** Follows whether the stream relayed has opened an error event of its upstream's own (see createLineStartFinder). */
export function createErrorEventFollower(): (chunk: Buffer) => boolean {
  return createLineStartFinder(ERROR_EVENT_STARTS);
}
