/**
 * Anthropic's automatic prompt caching: `cache_control` at the top of the request puts the breakpoint on the last
 * cacheable block and moves it along as the conversation grows. OpenAI and Gemini cache a repeated prefix on their
 * own, so their clients (Codex, chat apps, Gemini CLI) send no markers; on Claude every turn of their conversations
 * then paid the whole prompt again. Cached reads cost a tenth of input, writes a quarter more; a prompt below the
 * model's minimum is not cached and costs the same.
 */
const AUTOMATIC_CACHING = Object.freeze({ type: 'ephemeral' });

/**
 * The request with automatic caching, unless it places breakpoints of its own (a client's `cache_control`). The field
 * goes last: core knows it by how the body ends, to send the request again without it where a service refuses it
 * (core/pipeline/drop-refused-fields.ts).
 */
export function withAutomaticCaching<T extends Record<string, unknown>>(request: T): T {
  if (request.cache_control !== undefined || hasBreakpoint(request)) return request;
  return { ...request, cache_control: AUTOMATIC_CACHING };
}

/** Whether a block of the system prompt, the tools or the messages (tool results' content included) has `cache_control`. */
function hasBreakpoint(request: Record<string, unknown>): boolean {
  const marked = (block: unknown): boolean => typeof block === 'object' && block !== null && (block as { cache_control?: unknown }).cache_control != null;
  const anyMarked = (blocks: unknown): boolean => Array.isArray(blocks) && blocks.some((block) => marked(block) || anyMarked((block as { content?: unknown } | null)?.content));
  const messages = Array.isArray(request.messages) ? (request.messages as Array<{ content?: unknown }>) : [];
  return anyMarked(request.system) || anyMarked(request.tools) || messages.some((message) => anyMarked(message.content));
}
