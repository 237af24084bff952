/**
 * Lines that open an upstream's own error event in an SSE stream relayed as it is (Anthropic and Responses
 * `event: error`, Responses `response.failed` or a data-only `{"type":"error"…`, chat and Gemini `data: {"error"…`),
 * for the access line and so that no error of ours follows it. At a line's start only: inside an event's JSON a line
 * break is escaped, so model text cannot fake one.
 */
const ERROR_EVENT_STARTS = ['event: error', 'event: response.failed', 'data: {"error"', 'data: {"type":"error"', 'data: {"type": "error"']
  // Each also without the space after its colon, which SSE makes optional (`data:{"error"…`).
  .flatMap((start) => [start, start.replace(': ', ':')])
  .flatMap((start) => [`\n${start}`, `\r${start}`]);
const ERROR_EVENT_BYTES = ERROR_EVENT_STARTS.map((start) => Buffer.from(start));
const ERROR_EVENT_KEEP = Math.max(...ERROR_EVENT_STARTS.map((start) => start.length));

/**
 * Follows whether the stream relayed has opened an error event of its upstream's own, at a line's start (the stream's
 * own start counts as one); a line may start in one chunk and go on in the next, so their joint is looked at too.
 */
export function createErrorEventFollower(): (chunk: Buffer) => boolean {
  // The stream's last bytes as latin1 (one char per byte); a line break stands for the stream's start.
  let tail = '\n';
  return (chunk) => {
    const joint = tail + chunk.toString('latin1', 0, Math.min(chunk.length, ERROR_EVENT_KEEP));
    const opened = ERROR_EVENT_STARTS.some((start) => joint.includes(start)) || ERROR_EVENT_BYTES.some((start) => chunk.includes(start));
    tail = (tail + chunk.toString('latin1', Math.max(0, chunk.length - ERROR_EVENT_KEEP))).slice(-ERROR_EVENT_KEEP);
    return opened;
  };
}
