import type { UnifiedBuiltinTool, UnifiedTool } from '../../unified/unified-request';
import { webSearchTool } from '../shared/web-search-options';
import { anthropicClientTool } from './anthropic-client-tools';
import type { MessagesTool } from './messages-types';

export interface DecodedMessagesTools {
  tools?: UnifiedTool[];
  builtinTools?: UnifiedBuiltinTool[];
  /** Raw tools the unified form cannot hold whole; see `MessagesExtensions.tools`. */
  rawTools?: MessagesTool[];
}

const CUSTOM_TOOL_KEYS = new Set(['name', 'description', 'input_schema', 'type']);

/**
 * `web_search_20250305` → web_search with its domain lists, location and `max_uses`; `code_execution_20250825` →
 * code_execution (any dated version).
 */
function builtinOf(tool: MessagesTool, at: string): UnifiedBuiltinTool | undefined {
  const type = String(tool.type);
  if (type.startsWith('web_search_')) {
    const params = { allowedDomains: `${at}.allowed_domains`, blockedDomains: `${at}.blocked_domains`, userLocation: `${at}.user_location`, maxUses: `${at}.max_uses` };
    return webSearchTool({ allowedDomains: tool.allowed_domains, blockedDomains: tool.blocked_domains, userLocation: tool.user_location, maxUses: tool.max_uses }, params);
  }
  if (type.startsWith('code_execution_')) return { type: 'code_execution' };
  return undefined;
}

/**
 * Messages `tools` → unified tools. Custom tools keep their JSON Schema untouched (`$schema`,
 * `additionalProperties`, `propertyNames`, `const`… as Claude Code sends them). Dated server tools
 * map to built-in tools where one exists, Anthropic-defined client tools (bash, text editor, memory) to functions of
 * their documented input; every tool that carries more than the unified form holds is also kept raw so that a
 * Messages upstream receives it unchanged.
 */
export function decodeMessagesTools(wireTools: MessagesTool[] | undefined): DecodedMessagesTools {
  if (!wireTools) return {};
  const tools: UnifiedTool[] = [];
  const builtinTools: UnifiedBuiltinTool[] = [];
  const rawTools: MessagesTool[] = [];
  wireTools.forEach((tool, index) => {
    const isCustom = tool.type === undefined || tool.type === null || tool.type === 'custom';
    if (isCustom) {
      tools.push({
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: tool.input_schema ?? { type: 'object' },
        ...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}),
      });
      if (Object.keys(tool).some((key) => !CUSTOM_TOOL_KEYS.has(key))) rawTools.push(tool);
      return;
    }
    const builtin = builtinOf(tool, `tools[${index}]`);
    if (builtin && !builtinTools.some((b) => b.type === builtin.type)) builtinTools.push(builtin);
    // bash, the text editor, memory: run by the client, so any model can call them given their documented input.
    const clientTool = builtin ? undefined : anthropicClientTool(String(tool.type), tool.name);
    if (clientTool) tools.push(clientTool);
    rawTools.push(tool);
  });
  return {
    ...(tools.length > 0 ? { tools } : {}),
    ...(builtinTools.length > 0 ? { builtinTools } : {}),
    ...(rawTools.length > 0 ? { rawTools } : {}),
  };
}
