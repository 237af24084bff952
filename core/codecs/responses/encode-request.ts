import { GatewayError } from '../../errors/gateway-error';
import { refuseUntranslatableFields } from '../shared/refuse-untranslatable-fields';
import type {
  UnifiedMediaPart,
  UnifiedMessage,
  UnifiedReasoningConfig,
  UnifiedRequest,
  UnifiedTextPart,
  UnifiedTool,
} from '../../unified/unified-request';
import type { Converted } from '../codec';
import { toDataUri } from '../shared/parse-data-uri';
import { encodeResponsesTextFormat } from './encode-responses-text-format';
import { encodeResponsesToolChoice, encodeResponsesTools } from './encode-responses-tools';
import { freeformInput } from './freeform-tools';
import { effortForBudget, toOpenAiEffort } from '../shared/reasoning-effort-budget';

type Json = Record<string, unknown>;

function mediaUrl(part: UnifiedMediaPart): string {
  return part.source.kind === 'url' ? part.source.url : toDataUri(part.source.mediaType, part.source.data);
}

/** User/tool content part → Responses input content. Audio and video have no Responses input form. */
function encodeInputPart(part: UnifiedTextPart | UnifiedMediaPart, path: string): Json {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image':
      return { type: 'input_image', image_url: mediaUrl(part), detail: part.detail ?? 'auto' };
    case 'file': {
      const file: Json = { type: 'input_file' };
      if (part.source.kind === 'url') file.file_url = part.source.url;
      else file.file_data = mediaUrl(part);
      file.filename = part.filename ?? 'file';
      return file;
    }
    case 'audio':
    case 'video': {
      const param = part.clientPath ?? path;
      throw new GatewayError('GW_MEDIA_NOT_ALLOWED', `${param}: ${part.type} input is not accepted by this platform`, { param });
    }
  }
}

function textOf(message: UnifiedMessage): string {
  return message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

/** The request's tools a call can name that do not go upstream as plain functions, and the freeform calls made so far. */
interface ToolKinds {
  namespaces: Map<string, UnifiedTool>;
  freeform: Set<string>;
  /** Call ids of freeform calls: their results are `custom_tool_call_output`. */
  freeformCalls: Set<string>;
}

function encodeAssistant(message: UnifiedMessage, path: string, kinds: ToolKinds): Json[] {
  const items: Json[] = [];
  let text: string[] = [];
  const flushText = (): void => {
    if (text.length === 0) return;
    items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: text.join(''), annotations: [] }] });
    text = [];
  };
  message.content.forEach((part, j) => {
    if (part.type === 'text') {
      text.push(part.text);
      return;
    }
    flushText();
    if (part.type === 'tool_call' && kinds.freeform.has(part.name)) {
      kinds.freeformCalls.add(part.id);
      const tool = kinds.namespaces.get(part.name);
      const call: Json = { type: 'custom_tool_call', call_id: part.id, name: tool?.namespaceMember ?? part.name, input: freeformInput(part.arguments) };
      if (tool?.namespace !== undefined) call.namespace = tool.namespace;
      items.push(call);
    } else if (part.type === 'tool_call') {
      const tool = kinds.namespaces.get(part.name);
      const call: Json = { type: 'function_call', call_id: part.id, name: tool?.namespaceMember ?? part.name, arguments: part.arguments };
      if (tool?.namespace !== undefined) call.namespace = tool.namespace;
      items.push(call);
    } else if (part.type === 'reasoning') {
      // Encrypted reasoning replays only to the format that produced it; plain text from elsewhere is dropped.
      if (part.provider !== 'responses' || part.redactedData === undefined) return;
      const item: Json = { type: 'reasoning', summary: part.text ? [{ type: 'summary_text', text: part.text }] : [], encrypted_content: part.redactedData };
      if (part.id !== undefined) item.id = part.id;
      items.push(item);
    } else if (part.type === 'tool_result') {
      throw new GatewayError('GW_INVALID_REQUEST', `${path}.content[${j}]: a tool result cannot be part of an assistant turn`, { param: `${path}.content[${j}]` });
    } else {
      text.push(`![image](${mediaUrl(part)})`);
    }
  });
  flushText();
  return items;
}

function encodeToolResults(message: UnifiedMessage, path: string, freeformCalls: Set<string>): Json[] {
  return message.content.flatMap((part, j) => {
    if (part.type !== 'tool_result') return [];
    const onlyText = part.content.every((p) => p.type === 'text');
    const output = onlyText
      ? part.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n')
      : part.content.map((p, k) => encodeInputPart(p, `${path}.content[${j}].content[${k}]`));
    return [{ type: freeformCalls.has(part.toolCallId) ? 'custom_tool_call_output' : 'function_call_output', call_id: part.toolCallId, output }];
  });
}

function encodeInput(request: UnifiedRequest): Json[] {
  const tools = request.tools ?? [];
  const kinds: ToolKinds = {
    namespaces: new Map(tools.flatMap((t): Array<[string, UnifiedTool]> => (t.namespace ? [[t.name, t]] : []))),
    freeform: new Set(tools.flatMap((t) => (t.freeform ? [t.name] : []))),
    freeformCalls: new Set(),
  };
  const items: Json[] = [];
  request.messages.forEach((message, i) => {
    const path = `messages[${i}]`;
    switch (message.role) {
      case 'system':
        items.push({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: textOf(message) }] });
        break;
      case 'user': {
        items.push(...encodeToolResults(message, path, kinds.freeformCalls));
        const content = message.content.flatMap((part, j) =>
          part.type === 'text' || part.type === 'image' || part.type === 'audio' || part.type === 'video' || part.type === 'file'
            ? [encodeInputPart(part, `${path}.content[${j}]`)]
            : [],
        );
        if (content.length > 0) items.push({ type: 'message', role: 'user', content });
        break;
      }
      case 'assistant':
        items.push(...encodeAssistant(message, path, kinds));
        break;
      case 'tool':
        items.push(...encodeToolResults(message, path, kinds.freeformCalls));
        break;
    }
  });
  return items;
}

function encodeReasoning(reasoning: UnifiedReasoningConfig | undefined, original: unknown): Json | undefined {
  const base: Json = typeof original === 'object' && original !== null ? { ...(original as Json) } : {};
  // "Thinking off" is left to the upstream default: `effort: "none"` is rejected by older reasoning models.
  if (reasoning?.enabled === false) return Object.keys(base).length > 0 ? base : undefined;
  if (reasoning?.effort) base.effort = toOpenAiEffort(reasoning.effort);
  else if (reasoning?.budgetTokens !== undefined) base.effort = effortForBudget(reasoning.budgetTokens);
  if (reasoning?.includeThoughts && base.summary === undefined) base.summary = 'auto';
  return Object.keys(base).length > 0 ? base : undefined;
}

/** Unified → Responses body for an OpenAI Responses upstream. Stateless: `store` defaults to false. */
export function encodeResponsesRequest(request: UnifiedRequest): Converted<Record<string, unknown>> {
  refuseUntranslatableFields(request, 'responses');
  const warnings: string[] = [];
  // `instructions` and an `allowed_tools` choice as the client sent them are for the echo: the system text here holds
  // the leading developer messages too, and the tools and choice the allowed ones.
  const { reasoning: originalReasoning, text: originalText, instructions: _sentInstructions, tool_choice: _sentChoice, ...ext } = request.extensions?.responses ?? {};
  const body: Json = { model: request.model };
  if (request.system.length > 0) body.instructions = request.system.join('\n\n');
  body.input = encodeInput(request);
  Object.assign(body, ext);

  const tools = encodeResponsesTools(request);
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice !== undefined) body.tool_choice = encodeResponsesToolChoice(request.toolChoice, request);
  }
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  const reasoning = encodeReasoning(request.reasoning, originalReasoning);
  if (reasoning) body.reasoning = reasoning;
  const text: Json = typeof originalText === 'object' && originalText !== null ? { ...(originalText as Json) } : {};
  if (request.responseFormat) text.format = encodeResponsesTextFormat(request.responseFormat);
  if (Object.keys(text).length > 0) body.text = text;
  if (request.stream) body.stream = true;
  // A Responses client's `safety_identifier` is the end-user id already (it went back with the other Responses fields).
  if (request.user !== undefined && body.safety_identifier !== request.user) body.user = request.user;
  if (body.store === undefined) body.store = false;

  if (request.stop && request.stop.length > 0) warnings.push('stop dropped: the Responses API has no stop sequences');
  if (request.seed !== undefined) warnings.push('seed dropped: the Responses API has no seed');
  if (request.topK !== undefined) warnings.push('topK dropped: the Responses API has no top_k');
  if (request.presencePenalty !== undefined || request.frequencyPenalty !== undefined) warnings.push('penalties dropped: the Responses API has none');
  return { value: body, warnings };
}
