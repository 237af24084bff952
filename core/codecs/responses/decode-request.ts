import { GatewayError } from '../../errors/gateway-error';
import type {
  ReasoningEffort,
  UnifiedBuiltinTool,
  UnifiedMessage,
  UnifiedPart,
  UnifiedReasoningConfig,
  UnifiedReasoningPart,
  UnifiedRequest,
  UnifiedResponseFormat,
  UnifiedTextPart,
  UnifiedTool,
  UnifiedToolChoice,
  UnifiedToolResultPart,
} from '../../unified/unified-request';
import type { DecodeContext } from '../codec';
import { withinNameLimit } from '../shared/portable-function-names';
import { decodeResponsesContent } from './decode-responses-content';
import { decodeCustomTool, type ResponsesCustomTool } from './freeform-tools';
import { validateResponsesRequest } from './request-schema';
import type {
  ResponsesContentPart,
  ResponsesFunctionTool,
  ResponsesInputItem,
  ResponsesMessageItem,
  ResponsesReasoningItem,
  ResponsesRequest,
  ResponsesTextFormat,
  ResponsesTool,
  ResponsesToolChoice,
} from './responses-types';
import { webSearchTool } from '../shared/web-search-options';
import { endUserId } from '../shared/end-user-id';

/** Request fields with a unified meaning; every other field is kept in `extensions.responses`. */
const KNOWN_FIELDS = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens',
  'temperature', 'top_p', 'reasoning', 'text', 'stream', 'user',
]);

const WEB_SEARCH_TOOLS = new Set(['web_search', 'web_search_preview', 'web_search_2025_08_26', 'web_search_preview_2025_03_11']);

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${detail}`, { param });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `item_reference` points at an item stored upstream: say why it cannot work before the schema's generic enum error. */
function rejectItemReferences(body: unknown): void {
  if (!isRecord(body) || !Array.isArray(body.input)) return;
  body.input.forEach((item: unknown, i: number) => {
    if (isRecord(item) && item.type === 'item_reference') {
      throw invalid(`input[${i}].type`, 'item_reference is not supported; the gateway is stateless, send the full item instead');
    }
  });
}

function decodeTextOnly(content: string | ResponsesContentPart[], path: string, what: string): UnifiedTextPart[] {
  return decodeResponsesContent(content, `${path}.content`).map((part, j) => {
    if (part.type !== 'text') throw invalid(`${path}.content[${j}].type`, `only text parts are allowed in ${what}`);
    return part;
  });
}

function decodeReasoningItem(item: ResponsesReasoningItem): UnifiedReasoningPart {
  const summary = (item.summary ?? []).map((s) => s.text);
  const text = summary.length > 0 ? summary.join('\n\n') : (item.content ?? []).map((c) => c.text).join('');
  const part: UnifiedReasoningPart = { type: 'reasoning', text, provider: 'responses' };
  if (item.id) part.id = item.id;
  if (item.encrypted_content) part.redactedData = item.encrypted_content;
  return part;
}

/**
 * Whether an assistant message item after `turn` is a message of its own: `turn` already has text (reasoning items
 * may sit between the two) and no call, whose results must follow the message that makes it.
 */
function startsNewMessage(turn: UnifiedMessage): boolean {
  return turn.content.some((part) => part.type === 'text') && !turn.content.some((part) => part.type === 'tool_call');
}

/** Rebuilds turns from the flat item list: a run of reasoning/assistant/call items is one assistant turn. */
class ConversationBuilder {
  readonly system: string[] = [];
  readonly messages: UnifiedMessage[] = [];
  private readonly toolNames = new Map<string, string>();
  private leading = true;

  constructor(
    instructions: string | null | undefined,
    private readonly nameOf: ToolNamer,
    readonly warnings: string[],
  ) {
    if (instructions) this.system.push(instructions);
  }

  private assistant(part: UnifiedPart): void {
    this.leading = false;
    const last = this.messages[this.messages.length - 1];
    if (last?.role === 'assistant') last.content.push(part);
    else this.messages.push({ role: 'assistant', content: [part] });
  }

  private toolResult(callId: string, content: UnifiedToolResultPart['content']): void {
    this.leading = false;
    const result: UnifiedToolResultPart = { type: 'tool_result', toolCallId: callId, content };
    const name = this.toolNames.get(callId);
    if (name !== undefined) result.name = name;
    const last = this.messages[this.messages.length - 1];
    if (last?.role === 'tool') last.content.push(result);
    else this.messages.push({ role: 'tool', content: [result] });
  }

  private call(id: string, name: string, args: string): void {
    this.toolNames.set(id, name);
    this.assistant({ type: 'tool_call', id, name, arguments: args });
  }

  private message(item: ResponsesMessageItem, path: string): void {
    if (item.role === 'system' || item.role === 'developer') {
      const text = decodeTextOnly(item.content, path, 'a system message').map((p) => p.text).join('\n');
      if (this.leading) this.system.push(text);
      else this.messages.push({ role: 'system', content: [{ type: 'text', text }] });
      return;
    }
    if (item.role === 'assistant') {
      // A message right after another (Codex's commentary, then its final answer) is a message of its own: joined
      // into one, a chat upstream would read their texts run together ("I will look.Final answer.").
      const parts = decodeTextOnly(item.content, path, 'an assistant message');
      const last = this.messages[this.messages.length - 1];
      if (parts.length > 0 && last?.role === 'assistant' && startsNewMessage(last)) this.messages.push({ role: 'assistant', content: [] });
      for (const part of parts) this.assistant(part);
      return;
    }
    this.leading = false;
    this.messages.push({ role: 'user', content: decodeResponsesContent(item.content, `${path}.content`) });
  }

  add(item: ResponsesInputItem, path: string): void {
    switch (item.type) {
      case undefined:
      case 'message':
        return this.message(item, path);
      case 'function_call':
        return this.call(item.call_id, this.nameOf(item.name, item.namespace), item.arguments);
      case 'custom_tool_call':
        // Freeform input has no JSON shape: it travels as `{"input": …}`.
        return this.call(item.call_id, this.nameOf(item.name, item.namespace), JSON.stringify({ input: item.input }));
      case 'local_shell_call':
        return this.call(item.call_id, 'local_shell', JSON.stringify(item.action));
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const output = typeof item.output === 'string' ? [{ type: 'text' as const, text: item.output }] : decodeResponsesContent(item.output, `${path}.output`);
        return this.toolResult(item.call_id, output);
      }
      case 'local_shell_call_output':
        return this.toolResult(item.call_id ?? item.id, [{ type: 'text', text: item.output }]);
      case 'reasoning': {
        // Reasoning after an answer's text begins the next message (Claude's interleaved thinking, as a Responses
        // client gets it): it reasons toward what follows it.
        const last = this.messages[this.messages.length - 1];
        if (last?.role === 'assistant' && startsNewMessage(last)) this.messages.push({ role: 'assistant', content: [] });
        return this.assistant(decodeReasoningItem(item));
      }
      default:
        // Server-side tool records (web search, code interpreter, compaction…): nothing another upstream can replay.
        this.warnings.push(`${path}: ${item.type} item dropped`);
    }
  }
}

function decodeFunctionTool(tool: ResponsesFunctionTool, namespace?: string): UnifiedTool {
  const out: UnifiedTool = { name: tool.name, parameters: tool.parameters ?? { type: 'object', properties: {} } };
  if (typeof tool.description === 'string') out.description = tool.description;
  if (typeof tool.strict === 'boolean') out.strict = tool.strict;
  if (namespace !== undefined) out.namespace = namespace;
  return out;
}

function isFunctionTool(tool: { type: string }): tool is ResponsesFunctionTool {
  return tool.type === 'function';
}

function isCustomTool(tool: { type: string; name?: unknown }): tool is ResponsesCustomTool {
  return tool.type === 'custom' && typeof tool.name === 'string';
}

/** The unified name of a function a call names: qualified with its namespace where the tools made it so. */
type ToolNamer = (name: string, namespace: string | undefined) => string;

const namespaceKey = (namespace: string, name: string): string => `${namespace}\u0000${name}`;

/**
 * Namespace members whose name another tool also has get the namespace in front (`mcp__github__` + `search`, as Codex
 * itself names MCP tools for providers without namespaces), so every unified tool name is unique.
 */
function qualifyDuplicateNames(tools: UnifiedTool[]): { tools: UnifiedTool[]; nameOf: ToolNamer } {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  const qualified = new Map<string, string>();
  const out = tools.map((tool) => {
    if (tool.namespace === undefined || counts.get(tool.name) === 1) return tool;
    const name = withinNameLimit(tool.namespace.endsWith('_') ? `${tool.namespace}${tool.name}` : `${tool.namespace}__${tool.name}`);
    qualified.set(namespaceKey(tool.namespace, tool.name), name);
    return { ...tool, name, namespaceMember: tool.name };
  });
  return { tools: out, nameOf: (name, namespace) => (namespace === undefined ? name : (qualified.get(namespaceKey(namespace, name)) ?? name)) };
}

function decodeTools(tools: ResponsesTool[], warnings: string[]): { tools: UnifiedTool[]; builtinTools: UnifiedBuiltinTool[] } {
  const out: UnifiedTool[] = [];
  const builtin = new Map<UnifiedBuiltinTool['type'], UnifiedBuiltinTool>();
  tools.forEach((tool, i) => {
    if (isFunctionTool(tool)) {
      out.push(decodeFunctionTool(tool));
    } else if (isCustomTool(tool)) {
      out.push(decodeCustomTool(tool));
    } else if (tool.type === 'namespace' && Array.isArray(tool.tools) && typeof tool.name === 'string') {
      // Codex namespace tools: the model sees the inner functions; calls come back with `namespace` set again.
      const namespace = tool.name;
      const description = typeof tool.description === 'string' && tool.description !== '' ? tool.description : undefined;
      tool.tools.forEach((inner: { type: string }, j: number) => {
        const member = isFunctionTool(inner) ? decodeFunctionTool(inner, namespace) : isCustomTool(inner) ? decodeCustomTool(inner, namespace) : undefined;
        if (!member) return void warnings.push(`tools[${i}].tools[${j}]: tool type "${inner.type}" dropped`);
        if (description !== undefined) member.namespaceDescription = description;
        out.push(member);
      });
    } else if (WEB_SEARCH_TOOLS.has(tool.type)) {
      const search = tool as { filters?: unknown; user_location?: unknown };
      const at = `tools[${i}]`;
      if (search.filters !== undefined && search.filters !== null && !isRecord(search.filters)) throw invalid(`${at}.filters`, 'must be an object');
      const allowedDomains = isRecord(search.filters) ? search.filters.allowed_domains : undefined;
      const params = { allowedDomains: `${at}.filters.allowed_domains`, blockedDomains: at, userLocation: `${at}.user_location`, maxUses: at };
      if (!builtin.has('web_search')) builtin.set('web_search', webSearchTool({ allowedDomains, userLocation: search.user_location }, params));
    } else if (tool.type === 'code_interpreter') {
      builtin.set('code_execution', { type: 'code_execution' });
    } else if (tool.type === 'file_search' || tool.type === 'mcp') {
      // Vector stores and remote MCP servers reached by OpenAI: without them the answer is to another question.
      throw invalid(`tools[${i}]`, `the ${tool.type} tool is not available on this platform`);
    } else {
      warnings.push(`tools[${i}]: tool type "${tool.type}" dropped`);
    }
  });
  return { tools: out, builtinTools: [...builtin.values()] };
}

interface DecodedToolChoice {
  toolChoice: UnifiedToolChoice;
  /** `allowed_tools`: the functions the model may call, and the hosted tools it may run. */
  allowed?: Set<string>;
  allowedBuiltins?: Set<UnifiedBuiltinTool['type']>;
}

/** The unified built-in a Responses hosted tool type stands for. */
function builtinOf(type: string): UnifiedBuiltinTool['type'] | undefined {
  return WEB_SEARCH_TOOLS.has(type) ? 'web_search' : type === 'code_interpreter' ? 'code_execution' : undefined;
}

function decodeToolChoice(choice: ResponsesToolChoice, declared: readonly UnifiedBuiltinTool[]): DecodedToolChoice {
  if (typeof choice === 'string') return { toolChoice: choice };
  // A custom tool is a function of one argument to the upstream (see freeform-tools.ts), so it is forced as one.
  if ((choice.type === 'function' || choice.type === 'custom') && typeof choice.name === 'string') return { toolChoice: { name: choice.name } };
  if (choice.type === 'allowed_tools' && 'mode' in choice && Array.isArray(choice.tools)) {
    const allowed = new Set(choice.tools.flatMap((t) => ((t.type === 'function' || t.type === 'custom') && typeof t.name === 'string' ? [t.name] : [])));
    const allowedBuiltins = new Set(choice.tools.flatMap((t) => builtinOf(t.type) ?? []));
    return { toolChoice: choice.mode === 'required' ? 'required' : 'auto', allowed, allowedBuiltins };
  }
  // A forced hosted search or code interpreter names the built-in tool, which the request must declare (OpenAI's own
  // rule); another hosted tool runs only at OpenAI, and a translation answered without it would ignore the forcing.
  const builtin = builtinOf(choice.type);
  if (builtin === undefined) throw invalid('tool_choice', `forcing the ${choice.type} tool is not available on this platform`);
  if (!declared.some((tool) => tool.type === builtin)) throw invalid('tool_choice', `forces ${choice.type}, which tools does not declare`);
  return { toolChoice: { name: builtin } };
}

function decodeTextFormat(format: ResponsesTextFormat): UnifiedResponseFormat {
  if (format.type !== 'json_schema') return { type: format.type };
  const out: UnifiedResponseFormat = { type: 'json_schema', schema: format.schema ?? {} };
  if (format.name !== undefined) out.name = format.name;
  if (typeof format.strict === 'boolean') out.strict = format.strict;
  return out;
}

function decodeReasoning(reasoning: ResponsesRequest['reasoning']): UnifiedReasoningConfig | undefined {
  if (!reasoning) return undefined;
  const out: UnifiedReasoningConfig = {};
  if (reasoning.effort === 'none') out.enabled = false;
  else if (reasoning.effort) {
    out.enabled = true;
    out.effort = reasoning.effort as ReasoningEffort; // the schema enum allows only ReasoningEffort values besides "none"
  }
  if (reasoning.summary) out.includeThoughts = true;
  return Object.keys(out).length > 0 ? out : undefined;
}

function collectExtensions(body: ResponsesRequest): Record<string, unknown> {
  const ext: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!KNOWN_FIELDS.has(key) && value !== undefined) ext[key] = value;
  }
  // Kept whole so a responses upstream gets `summary` and `verbosity` back exactly as sent.
  if (body.reasoning) ext.reasoning = body.reasoning;
  if (body.text) {
    const { format: _format, ...rest } = body.text;
    if (Object.keys(rest).length > 0) ext.text = rest;
  }
  return ext;
}

/** Responses body → unified request. Throws GW_INVALID_REQUEST naming the field. */
export function decodeResponsesRequest(raw: unknown, ctx?: DecodeContext): UnifiedRequest {
  rejectItemReferences(raw);
  const body = validateResponsesRequest(raw);
  const warnings: string[] = [];
  const decoded = body.tools && body.tools.length > 0 ? decodeTools(body.tools, warnings) : undefined;
  const { tools, nameOf } = qualifyDuplicateNames(decoded?.tools ?? []);
  const builder = new ConversationBuilder(body.instructions, nameOf, warnings);
  if (typeof body.input === 'string') builder.add({ role: 'user', content: body.input }, 'input');
  else body.input.forEach((item, i) => builder.add(item, `input[${i}]`));

  const request: UnifiedRequest = {
    model: ctx?.model ?? body.model,
    system: builder.system,
    messages: builder.messages,
    stream: body.stream === true || ctx?.stream === true,
  };
  if (tools.length > 0) request.tools = tools;
  if (decoded && decoded.builtinTools.length > 0) request.builtinTools = decoded.builtinTools;
  if (body.tool_choice) {
    const { toolChoice, allowed, allowedBuiltins } = decodeToolChoice(body.tool_choice, decoded?.builtinTools ?? []);
    request.toolChoice = toolChoice;
    if (allowed && request.tools) request.tools = request.tools.filter((t) => allowed.has(t.namespaceMember ?? t.name));
    // A hosted tool left out of `allowed_tools` is not offered either: with `required`, a search would satisfy it.
    if (allowedBuiltins && request.builtinTools) {
      request.builtinTools = request.builtinTools.filter((tool) => allowedBuiltins.has(tool.type));
      if (request.builtinTools.length === 0) delete request.builtinTools;
    }
    if (typeof toolChoice === 'object') {
      // A forced function named as the client knows it: a namespace member's qualified name, or, when several
      // namespaces have one of that name, any of them. None: every upstream refuses it (OpenAI's own API too), and one
      // without tools would answer as if nothing had been forced.
      const named = (request.tools ?? []).filter((t) => t.name === toolChoice.name || t.namespaceMember === toolChoice.name);
      const forcesFunction = typeof body.tool_choice === 'object' && (body.tool_choice.type === 'function' || body.tool_choice.type === 'custom');
      if (named.length === 0 && forcesFunction) throw invalid('tool_choice.name', `"${toolChoice.name}" is not among the tools`);
      if (named.length === 1) request.toolChoice = { name: named[0].name };
      else if (named.length > 1) {
        request.toolChoice = 'required';
        request.tools = named;
      }
    }
  }
  if (typeof body.parallel_tool_calls === 'boolean') request.parallelToolCalls = body.parallel_tool_calls;
  if (typeof body.max_output_tokens === 'number') request.maxTokens = body.max_output_tokens;
  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.top_p === 'number') request.topP = body.top_p;
  if (body.text?.format) request.responseFormat = decodeTextFormat(body.text.format);
  const reasoning = decodeReasoning(body.reasoning);
  if (reasoning) request.reasoning = reasoning;
  const user = endUserId(body);
  if (user !== undefined) request.user = user;

  const ext = collectExtensions(body);
  // Leading developer messages join `instructions` as system text; the response echoes `instructions` as sent.
  if (builder.system.length > (body.instructions ? 1 : 0)) ext.instructions = body.instructions ?? null;
  // An `allowed_tools` choice becomes a plain one over fewer tools; the response echoes it as sent.
  if (isRecord(body.tool_choice) && body.tool_choice.type === 'allowed_tools') ext.tool_choice = body.tool_choice;
  if (Object.keys(ext).length > 0) request.extensions = { responses: ext };
  if (warnings.length > 0) request.warnings = warnings;
  return request;
}
