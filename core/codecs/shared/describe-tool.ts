import type { UnifiedTool } from '../../unified/unified-request';

/**
 * A tool's description for an upstream without namespaces: the description of the Codex namespace it came from (what
 * its tools are for, an MCP server's instructions) goes before the member's own, or the model would never see it.
 */
export function describeTool(tool: Pick<UnifiedTool, 'description' | 'namespaceDescription'>): string | undefined {
  if (tool.namespaceDescription === undefined) return tool.description;
  return tool.description ? `${tool.namespaceDescription}\n\n${tool.description}` : tool.namespaceDescription;
}
