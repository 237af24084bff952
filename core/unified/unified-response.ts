import type { UnifiedReasoningPart, UnifiedTextPart, UnifiedToolCallPart, UnifiedMediaPart } from './unified-request';

/** Why generation stopped, in the gateway's own words; each codec maps to and from its wire values. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

/** Token counts. `inputTokens` includes cached tokens; `outputTokens` includes reasoning tokens. */
export interface UnifiedUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens?: number;
  cacheCreationInputTokens?: number;
  reasoningTokens?: number;
}

/** Output content: text, reasoning, tool calls, and generated media (Gemini image models). */
export type UnifiedOutputPart = UnifiedTextPart | UnifiedReasoningPart | UnifiedToolCallPart | UnifiedMediaPart;

/**
 * A web source the answer's text cites (the upstream's hosted web search). `start` and `end` are UTF-16 offsets into
 * the answer's text: its text parts (streamed: its text deltas) joined in order.
 */
export interface UnifiedCitation {
  url: string;
  title?: string;
  start: number;
  end: number;
}

/** A web search the upstream ran for the answer (a hosted tool): what it searched for and the pages it found. */
export interface UnifiedWebSearch {
  id: string;
  query?: string;
  sources: Array<{ url: string; title?: string }>;
  /** The search itself failed upstream (Anthropic `web_search_tool_result_error`: unavailable, max_uses_exceeded…). */
  failed?: boolean;
}

export interface UnifiedResponse {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
  content: UnifiedOutputPart[];
  /** Sources the text cites, where the upstream searched the web. */
  citations?: UnifiedCitation[];
  /** Searches the upstream ran, in order. */
  webSearches?: UnifiedWebSearch[];
  finishReason: FinishReason;
  /** The stop sequence that ended generation, where the upstream says. */
  stopSequence?: string;
  usage: UnifiedUsage;
}
