import { GatewayError } from '../../errors/gateway-error';
import { createHash } from 'node:crypto';
import type {
  UnifiedMediaPart,
  UnifiedMessage,
  UnifiedReasoningConfig,
  UnifiedRequest,
  UnifiedResponseFormat,
  UnifiedTextPart,
  UnifiedToolChoice,
} from '../../unified/unified-request';
import type { Converted } from '../codec';
import { assertStatelessRequest } from '../shared/assert-stateless-request';
import { describeTool } from '../shared/describe-tool';
import { fileNameForMime } from '../shared/file-mime-from-name';
import { refuseUntranslatableFields } from '../shared/refuse-untranslatable-fields';
import { effortForBudget, toOpenAiEffort } from '../shared/reasoning-effort-budget';
import { toDataUri } from '../shared/parse-data-uri';
import { orphanToolResultText, toolResultText } from '../shared/tool-result-as-text';
import { JSON_MODE_INSTRUCTION, mentionsJson } from '../shared/json-mode-instruction';
import { textDocumentAsText } from '../../unified/text-documents';
import { encodeChatMediaMarkdown } from './encode-chat-media-markdown';
import type {
  ChatCompletionsContentPart,
  ChatCompletionsFunctionTool,
  ChatCompletionsMessage,
  ChatCompletionsResponseFormat,
  ChatCompletionsToolChoice,
} from './chat-completions-types';

/** OpenAI `input_audio` takes only these formats; other audio goes in an `image_url` part (gateway convention, spec 4.1). */
const INPUT_AUDIO_FORMATS: Record<string, string> = { 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav', 'audio/mp3': 'mp3', 'audio/mpeg': 'mp3' };

function mediaUrl(part: UnifiedMediaPart): string {
  return part.source.kind === 'url' ? part.source.url : toDataUri(part.source.mediaType, part.source.data);
}

function encodeMediaPart(part: UnifiedMediaPart): ChatCompletionsContentPart {
  if (part.type === 'file') {
    // OpenAI refuses `file_data` without a `filename`; a URL is taken for a PDF, the one type every platform reads.
    const filename = part.filename ?? fileNameForMime(part.source.kind === 'base64' ? part.source.mediaType : 'application/pdf');
    return { type: 'file', file: { file_data: mediaUrl(part), filename } };
  }
  if (part.type === 'audio' && part.source.kind === 'base64') {
    const format = INPUT_AUDIO_FORMATS[part.source.mediaType.toLowerCase()];
    if (format) return { type: 'input_audio', input_audio: { data: part.source.data, format } };
  }
  const imageUrl: { url: string; detail?: string } = { url: mediaUrl(part) };
  if (part.detail !== undefined) imageUrl.detail = part.detail;
  return { type: 'image_url', image_url: imageUrl };
}

/** OpenAI's limit on `user` (bifrost, maximhq/bifrost#1000); Claude Code's `metadata.user_id` is about 150 characters. */
const MAX_USER_LENGTH = 64;

/** An end-user id past the limit as a stable digest of it: the same user keeps one id, for the upstream's abuse tracking. */
function withinUserLimit(user: string): string {
  return user.length <= MAX_USER_LENGTH ? user : `user-${createHash('sha256').update(user).digest('hex').slice(0, 40)}`;
}

/** A single text part goes as a plain string, the form every OpenAI-compatible upstream accepts. */
function encodeUserContent(given: Array<UnifiedTextPart | UnifiedMediaPart>): string | ChatCompletionsContentPart[] {
  const parts = given.map(textDocumentAsText);
  if (parts.length === 1 && parts[0].type === 'text') return parts[0].text;
  return parts.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : encodeMediaPart(part)));
}

/** OpenAI's longest call id: a longer one is a 400 ("string too long. Expected a string with maximum length 40"). */
const MAX_CALL_ID_LENGTH = 40;

/**
 * A call id as the chat upstream gave it: a Messages client has it as `toolu_<id>` (see toPrefixedId), and services
 * that check their own ids refuse it so (Mistral: "Tool call id was toolu_D681PevKs but must be a-z, A-Z, 0-9, with a
 * length of 9"). Claude's own `toolu_01…` ids lose the prefix alike, the call and its result together. An id longer
 * than OpenAI takes (vLLM's `chatcmpl-tool-<32 hex>`, a conversation moved from another upstream) becomes a short one
 * derived from it, the same for the call and its result.
 */
function upstreamCallId(id: string): string {
  const own = id.startsWith('toolu_') && id.length > 'toolu_'.length ? id.slice('toolu_'.length) : id;
  return own.length <= MAX_CALL_ID_LENGTH ? own : `call_${createHash('sha256').update(own).digest('hex').slice(0, 32)}`;
}

function encodeAssistant(message: UnifiedMessage): ChatCompletionsMessage | undefined {
  const text: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> = [];
  for (const part of message.content) {
    if (part.type === 'text') text.push(part.text);
    else if (part.type === 'tool_call') toolCalls.push({ id: upstreamCallId(part.id), type: 'function', function: { name: part.name, arguments: part.arguments } });
    // Reasoning text goes back as DeepSeek-style `reasoning_content` (DeepSeek answers 400 to a tool turn without
    // it) when a chat upstream produced it: tagged so by a chat client, or unsigned, as it reaches a Messages or
    // Responses client (`thinking` with an empty signature). Signed reasoning is another provider's and stays there.
    else if (part.type === 'reasoning') {
      if (part.text && (part.provider === 'chat-completions' || (!part.signature && !part.redactedData))) reasoning.push(part.text);
    } else if (part.type !== 'tool_result') text.push(encodeChatMediaMarkdown(part)); // generated media, as the chat encoder rendered it for the client
  }
  if (text.length === 0 && toolCalls.length === 0 && reasoning.length === 0) return undefined;
  // `null` content is only for a turn that calls tools: a turn of reasoning alone (thinking cut short by max_tokens)
  // with null content is a 400 once its reasoning_content is dropped ("expected a string, got null").
  const out: ChatCompletionsMessage = { role: 'assistant', content: text.length > 0 ? text.join('') : toolCalls.length > 0 ? null : '' };
  if (reasoning.length > 0) out.reasoning_content = reasoning.join('');
  if (toolCalls.length > 0) out.tool_calls = toolCalls;
  return out;
}

/**
 * One `role: tool` message per result. Chat tool messages hold text only, so media returned by a tool
 * goes in a user message right after the run of tool messages instead of being dropped. A result whose call no
 * earlier assistant turn made (a client's sliding window cut the call off) goes as user text naming the function:
 * OpenAI refuses a tool message without its call ("must be a response to a preceding message with 'tool_calls'").
 */
function encodeToolResults(message: UnifiedMessage, called: ReadonlySet<string>): ChatCompletionsMessage[] {
  const out: ChatCompletionsMessage[] = [];
  const media: UnifiedMediaPart[] = [];
  for (const part of message.content) {
    if (part.type !== 'tool_result') continue;
    media.push(...part.content.filter((p): p is UnifiedMediaPart => p.type !== 'text'));
    const id = upstreamCallId(part.toolCallId);
    if (called.has(id)) out.push({ role: 'tool', tool_call_id: id, content: toolResultText(part) });
    else out.push({ role: 'user', content: orphanToolResultText(part) });
  }
  if (media.length > 0) out.push({ role: 'user', content: encodeUserContent(media) });
  return out;
}

function isUserContent(part: UnifiedMessage['content'][number]): part is UnifiedTextPart | UnifiedMediaPart {
  return part.type !== 'tool_call' && part.type !== 'tool_result' && part.type !== 'reasoning';
}

function textOf(message: UnifiedMessage): string {
  return message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

function encodeMessages(request: UnifiedRequest): ChatCompletionsMessage[] {
  const out: ChatCompletionsMessage[] = request.system.map((text) => ({ role: 'system', content: text }));
  if (request.responseFormat?.type === 'json_object' && !mentionsJson(request)) {
    // Joined to the system prompt there is: some chat templates take one system message only.
    const last = out.at(-1);
    if (last) last.content = `${String(last.content)}\n\n${JSON_MODE_INSTRUCTION}`;
    else out.push({ role: 'system', content: JSON_MODE_INSTRUCTION });
  }
  // Chat wants an assistant's tool calls answered by tool messages right after it (OpenAI: 400 otherwise); a Gemini
  // client may put text before or between its function responses. Other messages wait until every call is answered.
  const awaiting = new Set<string>();
  /** Every call an assistant turn made so far: a result of any other is no tool message (see encodeToolResults). */
  const called = new Set<string>();
  let waiting: ChatCompletionsMessage[] = [];
  const flush = (): void => {
    out.push(...waiting);
    waiting = [];
  };
  const add = (message: ChatCompletionsMessage): void => {
    if (message.role === 'tool') {
      out.push(message);
      if (message.tool_call_id !== undefined) awaiting.delete(message.tool_call_id);
      if (awaiting.size === 0) flush();
    } else if (awaiting.size > 0) {
      waiting.push(message);
    } else {
      out.push(message);
    }
  };
  for (const message of request.messages) {
    switch (message.role) {
      case 'system':
        add({ role: 'system', content: textOf(message) });
        break;
      case 'user': {
        // Tool results inside a user turn (decoders split them out, but the model allows it) still go as tool messages, first.
        encodeToolResults(message, called).forEach(add);
        const parts = message.content.filter(isUserContent);
        if (parts.length > 0) add({ role: 'user', content: encodeUserContent(parts) });
        break;
      }
      case 'assistant': {
        const assistant = encodeAssistant(message);
        if (!assistant) break;
        // A call left unanswered is the client's to fix; what waited on it goes before the next turn.
        awaiting.clear();
        flush();
        out.push(assistant);
        for (const call of assistant.tool_calls ?? []) {
          awaiting.add(call.id);
          called.add(call.id);
        }
        break;
      }
      case 'tool':
        encodeToolResults(message, called).forEach(add);
        break;
    }
  }
  flush();
  return out;
}

function encodeToolChoice(choice: UnifiedToolChoice): ChatCompletionsToolChoice {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function encodeResponseFormat(format: UnifiedResponseFormat): ChatCompletionsResponseFormat {
  if (format.type !== 'json_schema') return { type: format.type };
  const jsonSchema: { name: string; schema: Record<string, unknown>; strict?: boolean } = { name: format.name ?? 'response', schema: format.schema };
  if (format.strict !== undefined) jsonSchema.strict = format.strict;
  return { type: 'json_schema', json_schema: jsonSchema };
}

/**
 * `reasoning_effort` from the unified config; a bare budget maps to the nearest effort of the shared table. Thinking
 * switched off is `none`, so it stays off where the upstream's default is to reason (gpt-5.x, o-series); a model that
 * refuses the value or the field gets the call again without it (drop-refused-fields.ts).
 */
function encodeReasoningEffort(reasoning: UnifiedReasoningConfig | undefined): string | undefined {
  if (!reasoning) return undefined;
  if (reasoning.enabled === false) return 'none';
  if (reasoning.effort) return toOpenAiEffort(reasoning.effort);
  if (reasoning.budgetTokens === undefined) return undefined;
  // Many OpenAI-compatible services know only low/medium/high, so a small budget asks for `low`, not `minimal`.
  const effort = effortForBudget(reasoning.budgetTokens);
  return effort === 'minimal' ? 'low' : effort;
}

/** Unified → chat-completions body for an OpenAI-compatible upstream. */
export function encodeChatCompletionsRequest(request: UnifiedRequest): Converted<Record<string, unknown>> {
  assertStatelessRequest(request, 'chat-completions');
  refuseUntranslatableFields(request, 'chat-completions');
  const warnings: string[] = [];
  const { max_tokens: legacyMaxTokens, top_k: topK, stream_options: streamOptions, ...ext } = request.extensions?.['chat-completions'] ?? {};
  const body: Record<string, unknown> = { model: request.model, messages: encodeMessages(request), ...ext };
  // A Responses client's `text.verbosity` is chat's `verbosity` (gpt-5): it changes the answer's length.
  const responsesText = request.extensions?.responses?.text;
  const verbosity = typeof responsesText === 'object' && responsesText !== null ? (responsesText as { verbosity?: unknown }).verbosity : undefined;
  if (typeof verbosity === 'string' && body.verbosity === undefined) body.verbosity = verbosity;
  // And its `prompt_cache_key` (Codex sends its session id): chat takes it too, to route a prefix to its cache.
  const cacheKey = request.extensions?.responses?.prompt_cache_key;
  if (typeof cacheKey === 'string' && body.prompt_cache_key === undefined) body.prompt_cache_key = cacheKey;

  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool): ChatCompletionsFunctionTool => {
      const fn: ChatCompletionsFunctionTool['function'] = { name: tool.name };
      const description = describeTool(tool);
      if (description !== undefined) fn.description = description;
      fn.parameters = tool.parameters;
      if (tool.strict !== undefined) fn.strict = tool.strict;
      return { type: 'function', function: fn };
    });
    // OpenAI answers 400 to tool_choice / parallel_tool_calls without tools.
    if (request.toolChoice !== undefined) body.tool_choice = encodeToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  // Chat has no portable built-in tools (web_search_options only works on search models): drop them.
  for (const builtin of request.builtinTools ?? []) {
    if (builtin.type === 'web_search' && 'web_search_options' in body) continue;
    // A search asked for alone (Gemini CLI's google_web_search; forced, as Claude Code's WebSearch, is refused by
    // refuseUntranslatableFields) would be answered from the model's memory as if searched: refused, the client then
    // says the search failed. With tool_choice none nothing is to be searched anyway.
    if (builtin.type === 'web_search' && !request.tools?.length && request.toolChoice !== 'none') {
      throw new GatewayError('GW_INVALID_REQUEST', 'tools: web search is not available on this platform (chat completions upstreams cannot search the web)', { param: 'tools' });
    }
    // Code execution asked for alone, likewise: the model would answer as if it had run the code.
    if (builtin.type === 'code_execution' && !request.tools?.length && request.toolChoice !== 'none') {
      throw new GatewayError('GW_INVALID_REQUEST', 'tools: code execution is not available on this platform (chat completions upstreams cannot run code)', { param: 'tools' });
    }
    warnings.push(`builtin tool ${builtin.type} dropped: chat completions cannot express it`);
  }

  if (request.maxTokens !== undefined) {
    // A client that sent the older `max_tokens` gets it forwarded; many OpenAI-compatible upstreams only know that name.
    body[legacyMaxTokens !== undefined ? 'max_tokens' : 'max_completion_tokens'] = request.maxTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (topK !== undefined) body.top_k = request.topK ?? topK;
  else if (request.topK !== undefined) warnings.push('topK dropped: chat completions has no top_k');
  if (request.stop && request.stop.length > 0) body.stop = request.stop;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  if (request.responseFormat) body.response_format = encodeResponseFormat(request.responseFormat);
  const effort = encodeReasoningEffort(request.reasoning);
  if (effort) body.reasoning_effort = effort;
  if (request.stream) {
    body.stream = true;
    // Always ask for the usage chunk: clients of other formats need usage in their final events.
    body.stream_options = { ...(typeof streamOptions === 'object' && streamOptions !== null ? streamOptions : {}), include_usage: true };
  }
  // A chat client's `safety_identifier` is the end-user id already (it goes back as it came, with the other chat fields).
  if (request.user !== undefined && body.safety_identifier !== request.user) body.user = withinUserLimit(request.user);
  return { value: body, warnings };
}
