import type { RequestEcho, UnifiedTool, UnifiedToolChoice } from '../../unified/unified-request';
import { approximateLocation } from '../shared/web-search-options';
import { encodeCustomTool } from './freeform-tools';

type Json = Record<string, unknown>;

function encodeFunctionTool(tool: UnifiedTool): Json {
  const out: Json = { type: 'function', name: tool.namespaceMember ?? tool.name };
  if (tool.description !== undefined) out.description = tool.description;
  out.parameters = tool.parameters;
  // Responses treats an absent `strict` as true, which rejects most schemas written for other APIs.
  out.strict = tool.strict ?? false;
  return out;
}

/**
 * The request's tools in Responses shape: flat function tools, freeform (`custom`) tools, Codex namespace members
 * nested back under their namespace, and the hosted tools (`web_search`, `code_interpreter`).
 */
export function encodeResponsesTools(request: RequestEcho): Json[] {
  const tools: Json[] = [];
  const namespaces = new Map<string, Json[]>();
  for (const tool of request.tools ?? []) {
    const encoded = tool.freeform ? encodeCustomTool(tool) : encodeFunctionTool(tool);
    if (tool.namespace === undefined) {
      tools.push(encoded);
      continue;
    }
    let members = namespaces.get(tool.namespace);
    if (!members) {
      members = [];
      namespaces.set(tool.namespace, members);
      tools.push({ type: 'namespace', name: tool.namespace, ...(tool.namespaceDescription !== undefined ? { description: tool.namespaceDescription } : {}), tools: members });
    }
    members.push(encoded);
  }
  for (const builtin of request.builtinTools ?? []) {
    if (builtin.type === 'code_execution') {
      tools.push({ type: 'code_interpreter', container: { type: 'auto' } });
      continue;
    }
    // OpenAI's web search takes an allow list and a location (no block list, no search count).
    tools.push({
      type: 'web_search',
      ...(builtin.allowedDomains ? { filters: { allowed_domains: builtin.allowedDomains } } : {}),
      ...(builtin.userLocation ? { user_location: approximateLocation(builtin.userLocation) } : {}),
    });
  }
  return tools;
}

/** Built-in tools as a Responses tool_choice forces them. */
const HOSTED_CHOICE = new Map<string, Json>([
  ['web_search', { type: 'web_search' }],
  ['code_execution', { type: 'code_interpreter' }],
]);

/**
 * A unified tool choice as Responses spells it, for the upstream request and for the answer's echo alike: a forced
 * built-in as its hosted type, a freeform tool as `custom`, any other as `function`.
 */
export function encodeResponsesToolChoice(choice: UnifiedToolChoice, request: Pick<RequestEcho, 'tools'>): unknown {
  if (typeof choice === 'string') return choice;
  const declared = request.tools?.find((tool) => tool.name === choice.name);
  const hosted = declared ? undefined : HOSTED_CHOICE.get(choice.name);
  if (hosted) return hosted;
  return { type: declared?.freeform !== undefined ? 'custom' : 'function', name: choice.name };
}
