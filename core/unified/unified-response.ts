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

export interface UnifiedResponse {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
  content: UnifiedOutputPart[];
  finishReason: FinishReason;
  /** The stop sequence that ended generation, where the upstream says. */
  stopSequence?: string;
  usage: UnifiedUsage;
}
