import type { Logger, Store } from '@gateway/core';

/** One signed thinking block as Anthropic sent it: replayable only unchanged. */
export interface SignedThinkingBlock {
  text: string;
  signature?: string;
  redactedData?: string;
}

/** The signed thinking that preceded one tool call in an Anthropic answer. */
export interface StoredThinking {
  blocks: SignedThinkingBlock[];
  /** True when the blocks opened the assistant message (nothing before them), as Anthropic requires them back. */
  leading: boolean;
}

/** How long signed thinking is kept for the next turn of a tool loop. */
export const THINKING_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Signed thinking blocks keyed by the id of the tool call that followed them, in store namespace
 * `claude-thinking:<platform>`, for clients whose wire format cannot carry signatures back.
 */
export function createThinkingStore(store: Store, platform: string, log: Logger, ttlMs = THINKING_TTL_MS) {
  const namespace = `claude-thinking:${platform}`;
  return {
    async save(toolCallId: string, thinking: StoredThinking): Promise<void> {
      try {
        await store.set(namespace, toolCallId, thinking, { ttlMs });
      } catch (error) {
        // The answer still reaches the client; only the next turn's replay is at risk.
        log.error('could not store thinking signatures', { toolCallId, error: String(error) });
      }
    },

    async load(toolCallIds: readonly string[]): Promise<Map<string, StoredThinking>> {
      const found = new Map<string, StoredThinking>();
      const values = await Promise.all(toolCallIds.map((id) => store.get<StoredThinking>(namespace, id)));
      values.forEach((value, i) => {
        if (value && Array.isArray(value.blocks) && value.blocks.length > 0) found.set(toolCallIds[i], value);
      });
      return found;
    },
  };
}

export type ThinkingStore = ReturnType<typeof createThinkingStore>;
