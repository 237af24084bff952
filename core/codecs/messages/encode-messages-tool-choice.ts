import type { UnifiedToolChoice } from '../../unified/unified-request';
import type { MessagesToolChoice } from './messages-types';

/**
 * Unified tool choice + parallel flag → Messages `tool_choice`. The API rejects `tool_choice` when no
 * tools are sent, so nothing is returned then. `parallelToolCalls: false` needs a choice to ride on (`auto`).
 */
export function encodeMessagesToolChoice(
  choice: UnifiedToolChoice | undefined,
  parallelToolCalls: boolean | undefined,
  hasTools: boolean,
): MessagesToolChoice | undefined {
  if (!hasTools) return undefined;
  const noParallel = parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallelToolCalls === false ? { type: 'auto', ...noParallel } : undefined;
  if (choice === 'none') return { type: 'none' };
  if (choice === 'auto') return { type: 'auto', ...noParallel };
  if (choice === 'required') return { type: 'any', ...noParallel };
  return { type: 'tool', name: choice.name, ...noParallel };
}
