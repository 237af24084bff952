/** Whether an SSE event's data reads whole: JSON that parses, or chat's `[DONE]` (a line cut short does not). */
export function isWholeEventData(data: string): boolean {
  // Trimmed, as the chat decoder reads it: `data: [DONE] ` is the end too.
  if (data.trim() === '[DONE]') return true;
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}
