import { parseToolJson } from '@gateway/core';

type Block = Record<string, unknown>;

export interface ContentBlockAssembler {
  /** `content_block_start`: the block as it opens (a text's `""`, a tool call's `{}` input). */
  start(index: number, block: unknown): void;
  /** `content_block_delta`: text, thinking, a signature, a citation, or a piece of a tool call's input JSON. */
  delta(index: number, delta: unknown): void;
  /** `content_block_stop`: a tool call's input is whole. */
  stop(index: number): void;
  /** The blocks so far, by index, as a non-streaming answer would hold them. */
  blocks(): Block[];
  /** One past the highest index seen: where the next call's blocks go on in one answer. */
  size(): number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A Messages stream's content blocks rebuilt from its events (Anthropic's streaming reference: each delta type adds
 * to one field of its block), so that a streamed turn can be sent back as the assistant's, as a non-streaming answer's
 * `content` would be.
 */
export function createContentBlockAssembler(): ContentBlockAssembler {
  const blocks: Block[] = [];
  /** Input JSON of tool calls still streaming, by index. */
  const inputs = new Map<number, string>();
  let size = 0;
  return {
    start(index, block) {
      if (!isRecord(block)) return;
      blocks[index] = { ...block };
      size = Math.max(size, index + 1);
    },
    delta(index, delta) {
      const block = blocks[index];
      if (!block || !isRecord(delta)) return;
      if (delta.type === 'text_delta' && typeof delta.text === 'string') block.text = `${typeof block.text === 'string' ? block.text : ''}${delta.text}`;
      else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') block.thinking = `${typeof block.thinking === 'string' ? block.thinking : ''}${delta.thinking}`;
      else if (delta.type === 'signature_delta' && typeof delta.signature === 'string') block.signature = delta.signature;
      else if (delta.type === 'citations_delta' && delta.citation !== undefined) block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
      else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') inputs.set(index, (inputs.get(index) ?? '') + delta.partial_json);
    },
    stop(index) {
      const input = inputs.get(index);
      const block = blocks[index];
      if (input === undefined || !block) return;
      inputs.delete(index);
      // An empty input streams no JSON at all, and a broken one cannot be sent back: the `{}` of the block's start stands.
      if (input.trim() === '') return;
      try {
        block.input = parseToolJson(input, 'whole');
      } catch {
        // kept as it started
      }
    },
    blocks: () => blocks.filter(isRecord),
    size: () => size,
  };
}
