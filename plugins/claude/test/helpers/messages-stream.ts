import { messagesEvent as event } from './fake-upstream';

type Block = Record<string, unknown>;

export interface StreamUsage {
  /** `message_start`'s usage. */
  start: Record<string, unknown>;
  /** The cumulative usage of the `message_delta`. */
  end: Record<string, unknown>;
}

const USAGE: StreamUsage = { start: { input_tokens: 20, output_tokens: 1 }, end: { output_tokens: 30 } };

/** A non-streaming Messages answer. */
export function messagesAnswer(id: string, content: Block[], stopReason: string, usage: Record<string, unknown> = { input_tokens: 20, output_tokens: 30 }): Record<string, unknown> {
  return { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content, stop_reason: stopReason, stop_sequence: null, usage };
}

/**
 * The SSE stream Anthropic sends for the given final content blocks: thinking and text by deltas (a text's citations
 * as citations_delta), tool calls (client or server) with their input as JSON pieces, tool results whole at start.
 */
export function messagesStream(id: string, content: Block[], stopReason: string, usage: StreamUsage = USAGE): Buffer {
  let out = event('message_start', { message: { ...messagesAnswer(id, [], stopReason), stop_reason: null, usage: usage.start } });
  content.forEach((block, index) => {
    if (block.type === 'thinking') {
      out += event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      out += event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } });
      out += event('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'text') {
      out += event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const citation of (block.citations as unknown[] | undefined) ?? []) out += event('content_block_delta', { index, delta: { type: 'citations_delta', citation } });
      out += event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      out += event('content_block_start', { index, content_block: { ...block, input: {} } });
      out += event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    } else {
      out += event('content_block_start', { index, content_block: block });
    }
    out += event('content_block_stop', { index });
  });
  out += event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: usage.end });
  out += event('message_stop', {});
  return Buffer.from(out);
}
