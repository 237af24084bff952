import { GatewayError } from '../../errors/gateway-error';
import type {
  ReasoningEffort,
  UnifiedBuiltinTool,
  UnifiedMessage,
  UnifiedPart,
  UnifiedReasoningConfig,
  UnifiedRequest,
  UnifiedResponseFormat,
  UnifiedTool,
  UnifiedToolChoice,
  UnifiedToolResultPart,
} from '../../unified/unified-request';
import type { DecodeContext } from '../codec';
import type {
  ChatCompletionsFunctionTool,
  ChatCompletionsMessage,
  ChatCompletionsRequest,
  ChatCompletionsResponseFormat,
  ChatCompletionsToolChoice,
} from './chat-completions-types';
import { decodeChatCompletionsContent } from './decode-chat-completions-content';
import { validateChatCompletionsRequest } from './request-schema';
import { webSearchTool } from '../shared/web-search-options';
import { endUserId } from '../shared/end-user-id';

/** Request fields with a unified meaning; every other field is kept in `extensions['chat-completions']`. */
const KNOWN_FIELDS = new Set([
  'model', 'messages', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_tokens', 'max_completion_tokens',
  'temperature', 'top_p', 'top_k', 'stop', 'seed', 'presence_penalty', 'frequency_penalty', 'response_format',
  'reasoning_effort', 'budget_tokens', 'stream', 'stream_options', 'user', 'web_search_options',
]);

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${detail}`, { param });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The legacy `functions` API is not translated: say so before schema validation reports a vaguer error. */
function rejectLegacyFunctions(body: unknown): void {
  if (!isRecord(body)) return;
  for (const field of ['functions', 'function_call']) {
    if (body[field] !== undefined && body[field] !== null) {
      throw invalid(field, 'the legacy functions API is not supported; use "tools" and "tool_choice"');
    }
  }
  if (!Array.isArray(body.messages)) return;
  body.messages.forEach((message: unknown, i: number) => {
    if (isRecord(message) && message.role === 'function') {
      throw invalid(`messages[${i}].role`, 'the legacy "function" role is not supported; send tool results as "tool" messages');
    }
  });
}

/** System/developer content is text only: a string, or text parts joined by newlines. */
function decodeSystemText(content: ChatCompletionsMessage['content'], path: string): string {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .map((part, j) => {
      if (part.type !== 'text') throw invalid(`${path}.content[${j}].type`, 'only "text" parts are allowed in a system message');
      return part.text;
    })
    .join('\n');
}

function decodeAssistant(message: ChatCompletionsMessage, path: string, toolNames: Map<string, string>): UnifiedPart[] {
  const parts: UnifiedPart[] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning, provider: 'chat-completions' });
  const { content } = message;
  if (typeof content === 'string') {
    if (content !== '') parts.push({ type: 'text', text: content });
  } else if (content) {
    content.forEach((part, j) => {
      if (part.type === 'text') parts.push({ type: 'text', text: part.text });
      else if (part.type === 'refusal') parts.push({ type: 'text', text: part.refusal });
      else throw invalid(`${path}.content[${j}].type`, 'assistant messages may hold only "text" and "refusal" parts');
    });
  }
  // A refusal answer appended to the history as the SDK returned it (`content: null, refusal: "…"`): what the
  // assistant said, as a refusal part is.
  if (typeof message.refusal === 'string' && message.refusal !== '') parts.push({ type: 'text', text: message.refusal });
  for (const call of message.tool_calls ?? []) {
    toolNames.set(call.id, call.function.name);
    parts.push({ type: 'tool_call', id: call.id, name: call.function.name, arguments: call.function.arguments ?? '' });
  }
  return parts;
}

function decodeToolResult(message: ChatCompletionsMessage, path: string, toolNames: Map<string, string>): UnifiedToolResultPart {
  const toolCallId = message.tool_call_id ?? '';
  const result: UnifiedToolResultPart = { type: 'tool_result', toolCallId, content: decodeChatCompletionsContent(message.content, path) };
  const name = toolNames.get(toolCallId);
  if (name !== undefined) result.name = name;
  return result;
}

interface DecodedConversation {
  system: string[];
  messages: UnifiedMessage[];
}

/**
 * Leading system/developer messages become `system`; later ones stay in place as role 'system'.
 * Consecutive tool messages merge into one unified tool message (the shape Anthropic and Gemini need).
 */
function decodeMessages(input: ChatCompletionsMessage[]): DecodedConversation {
  const system: string[] = [];
  const messages: UnifiedMessage[] = [];
  const toolNames = new Map<string, string>();
  let leading = true;
  input.forEach((message, i) => {
    const path = `messages[${i}]`;
    if (message.role === 'system' || message.role === 'developer') {
      const text = decodeSystemText(message.content, path);
      if (leading) system.push(text);
      else messages.push({ role: 'system', content: [{ type: 'text', text }] });
      return;
    }
    leading = false;
    if (message.role === 'user') {
      messages.push({ role: 'user', content: decodeChatCompletionsContent(message.content, path) });
    } else if (message.role === 'assistant') {
      const content = decodeAssistant(message, path, toolNames);
      if (content.length > 0) messages.push({ role: 'assistant', content });
    } else {
      const result = decodeToolResult(message, path, toolNames);
      const last = messages[messages.length - 1];
      if (last?.role === 'tool') last.content.push(result);
      else messages.push({ role: 'tool', content: [result] });
    }
  });
  return { system, messages };
}

/** Spec 4.1: `{type: function, function: {name: "codeExecution"}}` with no other field enables code execution. */
function isCodeExecutionTool(tool: ChatCompletionsFunctionTool): boolean {
  return tool.function.name === 'codeExecution' && Object.keys(tool.function).length === 1;
}

function decodeTools(tools: ChatCompletionsFunctionTool[]): { tools: UnifiedTool[]; builtinTools: UnifiedBuiltinTool[] } {
  const out: UnifiedTool[] = [];
  const builtinTools: UnifiedBuiltinTool[] = [];
  for (const tool of tools) {
    if (isCodeExecutionTool(tool)) {
      builtinTools.push({ type: 'code_execution' });
      continue;
    }
    const { name, description, parameters, strict } = tool.function;
    const unified: UnifiedTool = { name, parameters: parameters ?? { type: 'object', properties: {} } };
    if (description !== undefined) unified.description = description;
    if (typeof strict === 'boolean') unified.strict = strict;
    out.push(unified);
  }
  return { tools: out, builtinTools };
}

function decodeToolChoice(choice: ChatCompletionsToolChoice): { toolChoice: UnifiedToolChoice; allowed?: Set<string> } {
  if (typeof choice === 'string') return { toolChoice: choice };
  if (choice.type === 'function') return { toolChoice: { name: choice.function.name } };
  // `allowed_tools` restricts the callable set: the same as offering only those tools.
  const allowed = new Set(choice.allowed_tools.tools.flatMap((t) => (t.function?.name ? [t.function.name] : [])));
  return { toolChoice: choice.allowed_tools.mode, allowed };
}

/**
 * A choice that requires a call of a tool the request does not declare, as OpenAI answers it (400): translated, the
 * choice would go with the missing tool and the client would get plain text where it required a call.
 */
function refuseUnknownToolChoice(choice: ChatCompletionsToolChoice, names: ReadonlySet<string>): void {
  const declared = (name: string): boolean => names.has(name);
  if (choice === 'required' && names.size === 0) throw invalid('tool_choice', '"required" needs tools to call; none are given');
  if (typeof choice === 'string') return;
  if (choice.type === 'function' && !declared(choice.function.name)) throw invalid('tool_choice.function.name', `"${choice.function.name}" is not among the tools`);
  if (choice.type !== 'allowed_tools') return;
  choice.allowed_tools.tools.forEach((tool, i) => {
    const name = tool.function?.name;
    if (name !== undefined && !declared(name)) throw invalid(`tool_choice.allowed_tools.tools[${i}].function.name`, `"${name}" is not among the tools`);
  });
}

function decodeResponseFormat(format: ChatCompletionsResponseFormat): UnifiedResponseFormat {
  if (format.type !== 'json_schema') return { type: format.type };
  const { name, schema, strict } = format.json_schema;
  const out: UnifiedResponseFormat = { type: 'json_schema', schema: schema ?? {} };
  if (name !== undefined) out.name = name;
  if (typeof strict === 'boolean') out.strict = strict;
  return out;
}

function decodeReasoning(body: ChatCompletionsRequest): UnifiedReasoningConfig | undefined {
  const effort = body.reasoning_effort;
  const budget = body.budget_tokens;
  // Anthropic's own `thinking` object, which its OpenAI-SDK compatibility layer documents for chat clients.
  const thinking = (body as { thinking?: unknown }).thinking;
  const thinkingType = isRecord(thinking) ? thinking.type : undefined;
  const thinkingBudget = isRecord(thinking) && typeof thinking.budget_tokens === 'number' ? thinking.budget_tokens : undefined;
  if ((effort === undefined || effort === null) && (budget === undefined || budget === null) && thinkingType === undefined) return undefined;
  const out: UnifiedReasoningConfig = {};
  if (thinkingType === 'disabled') out.enabled = false;
  else if (thinkingType === 'enabled') out.enabled = true;
  else if (thinkingType === 'adaptive') {
    out.enabled = true;
    out.adaptive = true;
  }
  if (effort === 'none') out.enabled = false;
  else if (effort) {
    out.enabled = true;
    out.effort = effort as ReasoningEffort; // the schema enum allows only ReasoningEffort values besides "none"
  }
  if (typeof budget === 'number') out.budgetTokens = budget;
  else if (thinkingBudget !== undefined && out.enabled) out.budgetTokens = thinkingBudget;
  return out;
}

function collectExtensions(body: ChatCompletionsRequest): Record<string, unknown> {
  const ext: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!KNOWN_FIELDS.has(key) && value !== undefined) ext[key] = value;
  }
  // Fields some OpenAI-compatible upstreams accept but OpenAI rejects: only a chat upstream gets them back.
  if (typeof body.max_tokens === 'number' && typeof body.max_completion_tokens !== 'number') ext.max_tokens = body.max_tokens;
  if (typeof body.top_k === 'number') ext.top_k = body.top_k;
  if (isRecord(body.web_search_options)) ext.web_search_options = body.web_search_options;
  if (body.stream_options) {
    const { include_usage: _includeUsage, ...rest } = body.stream_options;
    if (Object.keys(rest).length > 0) ext.stream_options = rest;
  }
  return ext;
}

/**
 * `modalities` as the output modalities another format's upstream is asked for: text, and image (Gemini's image
 * models, as OpenRouter asks for them). Audio stays with the chat fields (see refuseChatOnlyFields).
 */
function decodeModalities(modalities: string[] | null | undefined): UnifiedRequest['outputModalities'] {
  const out = (modalities ?? []).filter((modality): modality is 'text' | 'image' => modality === 'text' || modality === 'image');
  return out.length > 0 ? out : undefined;
}

/** Chat-completions body → unified request. Throws GW_INVALID_REQUEST naming the field. */
export function decodeChatCompletionsRequest(raw: unknown, ctx?: DecodeContext): UnifiedRequest {
  rejectLegacyFunctions(raw);
  const body = validateChatCompletionsRequest(raw);
  // A translation answers one choice; asking for more would silently get fewer.
  if (typeof body.n === 'number' && body.n > 1) throw invalid('n', 'only one choice (n: 1) can be answered on this platform');
  const outputModalities = decodeModalities(body.modalities);
  const { system, messages } = decodeMessages(body.messages);
  const request: UnifiedRequest = {
    model: ctx?.model ?? body.model,
    system,
    messages,
    stream: body.stream === true || ctx?.stream === true,
  };

  const builtinTools: UnifiedBuiltinTool[] = [];
  if (body.tools && body.tools.length > 0) {
    const decoded = decodeTools(body.tools);
    if (decoded.tools.length > 0) request.tools = decoded.tools;
    builtinTools.push(...decoded.builtinTools);
  }
  if (isRecord(body.web_search_options)) {
    const at = 'web_search_options';
    builtinTools.push(webSearchTool({ userLocation: body.web_search_options.user_location }, { allowedDomains: at, blockedDomains: at, userLocation: `${at}.user_location`, maxUses: at }));
  }
  if (builtinTools.length > 0) request.builtinTools = builtinTools;
  if (body.tool_choice) {
    const { toolChoice, allowed } = decodeToolChoice(body.tool_choice);
    request.toolChoice = toolChoice;
    // By the names the client declared (`codeExecution` is one, though it became the built-in code_execution).
    const declared = new Set([...(body.tools ?? []).map((tool) => tool.function.name), ...(request.builtinTools ?? []).map((tool) => tool.type)]);
    refuseUnknownToolChoice(body.tool_choice, declared);
    if (allowed && request.tools) request.tools = request.tools.filter((t) => allowed.has(t.name));
  }
  if (typeof body.parallel_tool_calls === 'boolean') request.parallelToolCalls = body.parallel_tool_calls;

  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (typeof maxTokens === 'number') request.maxTokens = maxTokens;
  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.top_p === 'number') request.topP = body.top_p;
  if (typeof body.top_k === 'number') request.topK = body.top_k;
  if (typeof body.stop === 'string') request.stop = [body.stop];
  else if (Array.isArray(body.stop) && body.stop.length > 0) request.stop = body.stop;
  if (typeof body.seed === 'number') request.seed = body.seed;
  if (typeof body.presence_penalty === 'number') request.presencePenalty = body.presence_penalty;
  if (typeof body.frequency_penalty === 'number') request.frequencyPenalty = body.frequency_penalty;
  if (body.response_format) request.responseFormat = decodeResponseFormat(body.response_format);
  const reasoning = decodeReasoning(body);
  if (reasoning) request.reasoning = reasoning;
  if (request.stream && body.stream_options?.include_usage === true) request.streamUsage = true;
  const user = endUserId(body);
  if (user !== undefined) request.user = user;
  if (outputModalities) request.outputModalities = outputModalities;

  const ext = collectExtensions(body);
  if (Object.keys(ext).length > 0) request.extensions = { 'chat-completions': ext };
  return request;
}
