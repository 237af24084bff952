import type { UnifiedToolResultPart } from '../../unified/unified-request';

/**
 * A failed call's text marked so for a format with no error flag on a result (chat's tool message, a result sent as
 * user text), unless it already says so (Claude Code's `<tool_use_error>`).
 */
export function markedAsError(text: string): string {
  return /^\s*(?:error\b|<tool_use_error>)/i.test(text) ? text : `Error: ${text}`;
}

/** A tool result's text parts, lines apart; a failed call's text marked as such (see markedAsError). */
export function toolResultText(part: UnifiedToolResultPart): string {
  const text = part.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  return part.isError ? markedAsError(text) : text;
}

/**
 * A result whose call the upstream cannot see (a client's sliding window cut the call off, a Gemini client's response
 * naming no call) as user text naming the function: chat and Messages upstreams refuse a result without its call.
 */
export function orphanToolResultText(part: UnifiedToolResultPart): string {
  return `${part.name ?? 'function'} result: ${toolResultText(part)}`;
}
