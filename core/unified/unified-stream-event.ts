import type { GatewayError } from '../errors/gateway-error';
import type { WireFormat } from './unified-request';
import type { FinishReason, UnifiedCitation, UnifiedUsage, UnifiedWebSearch } from './unified-response';

/**
 * One step of a generation stream. Decoders turn upstream wire events into these; encoders turn them
 * into client wire events. Block boundaries are implicit: an encoder closes the open block when an
 * event of another kind (or another tool-call index) arrives.
 *
 * Order: `start` first; then any mix of deltas; then exactly one `finish` (or one `error`).
 */
export type UnifiedStreamEvent =
  | { type: 'start'; id: string; model: string; created: number; usage?: Partial<UnifiedUsage> }
  /** `refusal`: the text is the model declining to answer (see UnifiedTextPart). */
  | { type: 'text_delta'; text: string; refusal?: boolean }
  | { type: 'reasoning_delta'; text: string }
  /**
   * The signature (or opaque data) that closes the current reasoning block. `provider` names the format that made it
   * (as on UnifiedReasoningPart): only that format can replay it.
   */
  | { type: 'reasoning_signature'; signature: string; provider?: WireFormat }
  | { type: 'redacted_reasoning'; data: string; provider?: WireFormat }
  /** `index` counts tool calls within this response, from 0. */
  | { type: 'tool_call_start'; index: number; id: string; name: string; signature?: string }
  | { type: 'tool_call_delta'; index: number; argumentsDelta: string }
  /** A whole generated media item (Gemini image output). */
  | { type: 'media'; mediaType: string; data: string }
  /** Sources of text already streamed; offsets into all text deltas so far, joined (see UnifiedCitation). */
  | { type: 'citations'; citations: UnifiedCitation[] }
  /** A web search the upstream ran (a hosted tool), once its results are in. */
  | { type: 'web_search'; search: UnifiedWebSearch }
  /** Cumulative usage so far; the last one wins. */
  | { type: 'usage'; usage: Partial<UnifiedUsage> }
  | { type: 'finish'; finishReason: FinishReason; stopSequence?: string; usage: UnifiedUsage }
  | { type: 'error'; error: GatewayError };
