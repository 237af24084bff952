import type { FinishReason } from '../../unified/unified-response';

/**
 * Responses has no finish reason: `status` plus `incomplete_details.reason`, and tool calls are simply
 * `function_call` output items of a completed response (fixtures README, stop-reason table).
 */
export function mapResponsesStatus(status: unknown, incompleteReason: unknown, hasToolCalls: boolean): FinishReason {
  if (status === 'incomplete') {
    if (incompleteReason === 'max_output_tokens') return 'length';
    if (incompleteReason === 'content_filter') return 'content_filter';
    return 'other';
  }
  if (status === 'completed') return hasToolCalls ? 'tool_calls' : 'stop';
  return 'other';
}

/** Unified → `status` and `incomplete_details`. */
export function encodeResponsesStatus(reason: FinishReason): { status: 'completed' | 'incomplete'; incompleteDetails: { reason: string } | null } {
  if (reason === 'length') return { status: 'incomplete', incompleteDetails: { reason: 'max_output_tokens' } };
  if (reason === 'content_filter') return { status: 'incomplete', incompleteDetails: { reason: 'content_filter' } };
  return { status: 'completed', incompleteDetails: null };
}
