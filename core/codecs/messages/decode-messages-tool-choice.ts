import type { UnifiedToolChoice } from '../../unified/unified-request';
import type { MessagesToolChoice } from './messages-types';

export interface DecodedMessagesToolChoice {
  toolChoice?: UnifiedToolChoice;
  parallelToolCalls?: boolean;
}

/** `{type: auto|any|tool|none}` + `disable_parallel_tool_use` → unified tool choice and parallel flag. */
export function decodeMessagesToolChoice(choice: MessagesToolChoice | undefined): DecodedMessagesToolChoice {
  if (!choice) return {};
  const parallel = choice.disable_parallel_tool_use === true ? { parallelToolCalls: false } : {};
  switch (choice.type) {
    case 'auto':
      return { toolChoice: 'auto', ...parallel };
    case 'any':
      return { toolChoice: 'required', ...parallel };
    case 'none':
      return { toolChoice: 'none', ...parallel };
    case 'tool':
      return { toolChoice: { name: choice.name ?? '' }, ...parallel };
  }
}
