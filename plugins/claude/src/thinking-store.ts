import { createCallMemo, type CallMemo, type Logger, type Store } from '@gateway/core';

/** One signed thinking block as Anthropic sent it: replayable only unchanged. */
export interface SignedThinkingBlock {
  text: string;
  signature?: string;
  redactedData?: string;
  /** Text came between the block before it (or the message's start) and this one: it goes back after that text. */
  afterText?: boolean;
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
export function createThinkingStore(store: Store, platform: string, log: Logger, ttlMs = THINKING_TTL_MS): CallMemo<StoredThinking> {
  return createCallMemo(store, `claude-thinking:${platform}`, log, { ttlMs, what: 'thinking signatures', isValid: isStoredThinking });
}

function isStoredThinking(value: unknown): value is StoredThinking {
  return typeof value === 'object' && value !== null && Array.isArray((value as StoredThinking).blocks) && (value as StoredThinking).blocks.length > 0;
}

export type ThinkingStore = CallMemo<StoredThinking>;
