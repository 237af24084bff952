import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedToolChoice } from '../../unified/unified-request';
import type { MessagesTool, MessagesToolChoice } from './messages-types';

export interface DecodedMessagesToolChoice {
  toolChoice?: UnifiedToolChoice;
  parallelToolCalls?: boolean;
}

/**
 * `{type: auto|any|tool|none}` + `disable_parallel_tool_use` → unified tool choice and parallel flag; a `tool` choice
 * must name one of `tools`.
 */
export function decodeMessagesToolChoice(choice: MessagesToolChoice | undefined, tools: readonly MessagesTool[] = []): DecodedMessagesToolChoice {
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
      // A tool the request does not declare: Anthropic refuses it, and another upstream would too (or, with no tools,
      // answer as if nothing had been forced).
      if (!tools.some((tool) => tool.name === choice.name)) {
        throw new GatewayError('GW_INVALID_REQUEST', `tool_choice.name: "${choice.name ?? ''}" is not among the tools`, { param: 'tool_choice.name' });
      }
      return { toolChoice: { name: choice.name ?? '' }, ...parallel };
  }
}
