import type { UnifiedBuiltinTool, UnifiedTool } from '../../unified/unified-request';
import { describeTool } from '../shared/describe-tool';
import { approximateLocation } from '../shared/web-search-options';
import type { MessagesTool } from './messages-types';

/** The server tool sent for a built-in tool when the client did not spell out its own version: a web search with its limits. */
function defaultServerTool(builtin: UnifiedBuiltinTool): MessagesTool {
  if (builtin.type === 'code_execution') return { type: 'code_execution_20250825', name: 'code_execution' };
  return {
    type: 'web_search_20250305',
    name: 'web_search',
    ...(builtin.allowedDomains ? { allowed_domains: builtin.allowedDomains } : {}),
    // Anthropic takes one of the two lists.
    ...(builtin.blockedDomains && !builtin.allowedDomains ? { blocked_domains: builtin.blockedDomains } : {}),
    ...(builtin.userLocation ? { user_location: approximateLocation(builtin.userLocation) } : {}),
    ...(builtin.maxUses !== undefined ? { max_uses: builtin.maxUses } : {}),
  };
}

const BUILTIN_PREFIX: Record<UnifiedBuiltinTool['type'], string> = {
  web_search: 'web_search_',
  code_execution: 'code_execution_',
};

function isCustom(tool: MessagesTool): boolean {
  return tool.type === undefined || tool.type === null || tool.type === 'custom';
}

/** `input_schema` must be an object schema; clients of other formats may send `{}` for "no arguments". */
function toInputSchema(parameters: Record<string, unknown>): Record<string, unknown> {
  if (parameters.type !== undefined) return parameters;
  return { type: 'object', ...(parameters.properties === undefined ? { properties: {} } : {}), ...parameters };
}

function encodeCustomTool(tool: UnifiedTool, raw: MessagesTool | undefined): MessagesTool {
  // Fields only a Messages client sets (cache_control, strict, defer_loading…) come back from the raw tool.
  const { name: _name, description: _description, input_schema: _schema, ...extras } = raw ?? { name: tool.name };
  const description = describeTool(tool);
  return {
    ...extras,
    name: tool.name,
    ...(description !== undefined ? { description } : {}),
    input_schema: toInputSchema(tool.parameters),
  };
}

/**
 * Unified tools → Messages `tools`. Schemas go unchanged (Anthropic accepts full JSON Schema).
 * `strict` from other formats is not sent: older Claude models reject it and it does not change the
 * answer. Built-in tools become dated server tools; raw Messages tools in `rawTools` come back as sent.
 */
export function encodeMessagesTools(
  tools: UnifiedTool[] | undefined,
  builtinTools: UnifiedBuiltinTool[] | undefined,
  rawTools: MessagesTool[] = [],
  warnings: string[] = [],
): MessagesTool[] | undefined {
  // A function standing for a typed tool (bash_20250124 as `bash`) goes back as that typed tool, with the raw ones.
  const typedNames = new Set(rawTools.filter((raw) => !isCustom(raw)).map((raw) => raw.name));
  const out: MessagesTool[] = (tools ?? [])
    .filter((tool) => !typedNames.has(tool.name))
    .map((tool) => encodeCustomTool(tool, rawTools.find((raw) => isCustom(raw) && raw.name === tool.name)));
  const builtins = new Map((builtinTools ?? []).map((b) => [b.type, b] as const));
  for (const [kind, builtin] of builtins) {
    const raw = rawTools.filter((r) => !isCustom(r) && String(r.type).startsWith(BUILTIN_PREFIX[kind]));
    const server = raw.length > 0 ? raw : [defaultServerTool(builtin)];
    // A function of the client's own that has the server tool's name (`web_search`): Anthropic refuses two tools of one
    // name, and the client's is one it can run; the server tool is left out.
    if (server.some((tool) => out.some((own) => isCustom(own) && own.name === tool.name))) {
      warnings.push(`tools: the ${kind} server tool dropped, a function of the client's has its name`);
      continue;
    }
    out.push(...server);
  }
  for (const raw of rawTools) {
    if (isCustom(raw)) continue;
    const kind = (Object.keys(BUILTIN_PREFIX) as Array<UnifiedBuiltinTool['type']>).find((k) => String(raw.type).startsWith(BUILTIN_PREFIX[k]));
    if (kind === undefined) out.push(raw);
  }
  return out.length > 0 ? out : undefined;
}
