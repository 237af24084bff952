import { mergeAnthropicBeta } from './merge-anthropic-beta';

/**
 * Server tools Anthropic serves only under a beta flag (its tool docs send `anthropic-beta` with each): the tool type
 * a translation writes → the flag. Without it the API refuses the tool list with a 400.
 */
const TOOL_BETAS: Readonly<Record<string, string>> = {
  code_execution_20250825: 'code-execution-2025-08-25',
};

/** The beta flags a Messages request's `tools` need, each once, in the order of the tools. */
export function betasForTools(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  const flags: string[] = [];
  for (const tool of tools) {
    const type = typeof tool === 'object' && tool !== null ? (tool as { type?: unknown }).type : undefined;
    const flag = typeof type === 'string' ? TOOL_BETAS[type] : undefined;
    if (flag !== undefined && !flags.includes(flag)) flags.push(flag);
  }
  return flags;
}

/** `headers` with the beta flags a Messages request's `tools` need added to its `anthropic-beta` (set in place). */
export function addToolBetas(headers: Record<string, string>, tools: unknown): Record<string, string> {
  const betas = betasForTools(tools);
  if (betas.length > 0) headers['anthropic-beta'] = betas.reduce<string | undefined>(mergeAnthropicBeta, headers['anthropic-beta']) as string;
  return headers;
}
