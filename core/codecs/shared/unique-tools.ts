import type { UnifiedTool } from '../../unified/unified-request';

/**
 * The first function tool of each name. Anthropic ("Tool names must be unique") and Gemini ("Duplicate function
 * declaration found") refuse a list naming one twice, which OpenAI takes: a client with two MCP servers or toolsets
 * exposing the same tool sends one. The model calls a tool by name, so the client's answer to it is the same; a later
 * one of the same name is left out, with a warning.
 */
export function uniqueTools(tools: UnifiedTool[] | undefined, warnings: string[] = []): UnifiedTool[] | undefined {
  if (tools === undefined || tools.length < 2) return tools;
  const seen = new Set<string>();
  const out: UnifiedTool[] = [];
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      warnings.push(`tools: a second tool named "${tool.name}" dropped, names must be unique upstream`);
      continue;
    }
    seen.add(tool.name);
    out.push(tool);
  }
  return out.length === tools.length ? tools : out;
}
