import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedRequest, WireFormat } from '../../unified/unified-request';
import { isPlainObject } from './is-plain-object';

type Fields = Record<string, unknown>;

/** Anthropic tools no other format can run: a computer to drive, a page fetched on Anthropic's side. */
const MESSAGES_ONLY_TOOL = /^(computer|web_fetch)_/;

/**
 * Asks of one format that another format's upstream cannot answer, and whose absence the client would not notice
 * or would break on: a 400 naming the field, as for `n` above 1, rather than an answer without them.
 * - token log probabilities (chat `logprobs`/`top_logprobs`, Responses `top_logprobs` or the logprobs `include`,
 *   Gemini `responseLogprobs`/`logprobs`): a client reads them from the answer;
 * - audio output (chat `modalities`, Gemini `AUDIO`), image output without text (`IMAGE` alone), Gemini enum output
 *   (`text/x.enum`), chat `logit_bias`;
 * - state or tools kept at the client's vendor: Gemini `cachedContent`, a Responses stored `prompt`, Gemini tools
 *   other than functions, search and code execution (`urlContext`, `fileSearch`, `googleMaps`…), Anthropic's
 *   `mcp_servers` and its computer and web fetch tools. Without them the answer is to another question; a 400 also
 *   lets a client that can do without (Gemini CLI's web fetch) fall back on its own.
 * An upstream of the client's own format gets them back with the format's other fields.
 */
type Refusable = Pick<UnifiedRequest, 'extensions' | 'outputModalities' | 'tools' | 'toolChoice' | 'builtinTools'>;

export function refuseUntranslatableFields(request: Refusable, target: WireFormat): void {
  const chat = target === 'chat-completions' ? undefined : request.extensions?.['chat-completions'];
  if (chat) refuseChatFields(chat);
  const gemini = target === 'gemini' ? undefined : request.extensions?.gemini;
  if (gemini) refuseGeminiFields(gemini);
  // Gemini clients' AUDIO modality (a chat client's is its `modalities`, checked above; a chat upstream gets it back).
  if (target !== 'gemini' && !request.extensions?.['chat-completions'] && request.outputModalities?.includes('audio')) {
    throw unavailable('generationConfig.responseModalities', 'audio output is');
  }
  // Images and no text asked of an upstream that answers text only: the answer would be none of what was asked.
  if (target !== 'gemini' && request.outputModalities?.includes('image') && !request.outputModalities.includes('text')) {
    throw unavailable(request.extensions?.['chat-completions'] ? 'modalities' : 'generationConfig.responseModalities', 'image output is');
  }
  const responses = target === 'responses' ? undefined : request.extensions?.responses;
  if (responses) refuseResponsesFields(responses);
  const messages = target === 'messages' ? undefined : request.extensions?.messages;
  if (messages) refuseMessagesFields(messages, request);
  refuseForcedBuiltin(request, target);
}

/** Whether `target` runs the request's built-in tools (web search, code execution) as asked. */
function carriesBuiltins(request: Refusable, target: WireFormat): boolean {
  if (target === 'messages' || target === 'responses') return true;
  // Gemini does not combine a built-in tool with functions (see encodeTools); chat completions has none.
  return target === 'gemini' && !request.tools?.length;
}

/**
 * A forced built-in tool the target drops would be answered without it, or forced by a name it does not know; so
 * would "any tool" when built-ins are the only tools.
 */
function refuseForcedBuiltin(request: Refusable, target: WireFormat): void {
  if (request.toolChoice === 'required' && !request.tools?.length && request.builtinTools?.length && !carriesBuiltins(request, target)) {
    throw unavailable('tool_choice', `requiring the ${request.builtinTools.map((builtin) => builtin.type).join(' or ')} tool is`);
  }
  const forced = typeof request.toolChoice === 'object' && request.toolChoice !== null ? request.toolChoice.name : undefined;
  if (forced === undefined || request.tools?.some((tool) => tool.name === forced)) return;
  if (request.builtinTools?.some((builtin) => builtin.type === forced) && !carriesBuiltins(request, target)) {
    throw unavailable('tool_choice', `forcing the ${forced} tool is`);
  }
}

function refuseChatFields(chat: Fields): void {
  if (chat.logprobs === true) throw unavailable('logprobs', 'token log probabilities are');
  if (typeof chat.top_logprobs === 'number' && chat.top_logprobs > 0) throw unavailable('top_logprobs', 'token log probabilities are');
  if (Array.isArray(chat.modalities)) {
    const audio = chat.modalities.indexOf('audio');
    if (audio >= 0) throw unavailable(`modalities[${audio}]`, 'audio output is');
  }
  if (isPlainObject(chat.logit_bias) && Object.keys(chat.logit_bias).length > 0) throw unavailable('logit_bias', 'token biases are');
}

function refuseGeminiFields(gemini: Fields): void {
  if (typeof gemini.cachedContent === 'string') throw unavailable('cachedContent', 'content cached at Google is');
  const generation = isPlainObject(gemini.generationConfig) ? gemini.generationConfig : {};
  if (generation.responseLogprobs === true) throw unavailable('generationConfig.responseLogprobs', 'token log probabilities are');
  if (typeof generation.logprobs === 'number' && generation.logprobs > 0) throw unavailable('generationConfig.logprobs', 'token log probabilities are');
  if (generation.responseMimeType === 'text/x.enum') throw unavailable('generationConfig.responseMimeType', 'enum output (text/x.enum) is');
  for (const tool of Array.isArray(gemini.tools) ? gemini.tools : []) {
    const kind = isPlainObject(tool) ? Object.keys(tool)[0] : undefined;
    if (kind !== undefined) throw unavailable('tools', `the ${kind} tool is`);
  }
}

function refuseResponsesFields(responses: Fields): void {
  if (responses.prompt !== undefined && responses.prompt !== null) throw unavailable('prompt', 'a prompt stored at OpenAI is');
  if (typeof responses.top_logprobs === 'number' && responses.top_logprobs > 0) throw unavailable('top_logprobs', 'token log probabilities are');
  const include = Array.isArray(responses.include) ? responses.include : [];
  const logprobs = include.indexOf('message.output_text.logprobs');
  if (logprobs >= 0) throw unavailable(`include[${logprobs}]`, 'token log probabilities are');
}

function refuseMessagesFields(messages: Fields, request: Refusable): void {
  if (Array.isArray(messages.mcp_servers) && messages.mcp_servers.length > 0) throw unavailable('mcp_servers', 'MCP servers called by Anthropic are');
  const tools = Array.isArray(messages.tools) ? messages.tools : [];
  const forced = typeof request.toolChoice === 'object' && request.toolChoice !== null ? request.toolChoice.name : undefined;
  for (const tool of tools) {
    const type = isPlainObject(tool) && typeof tool.type === 'string' ? tool.type : '';
    if (MESSAGES_ONLY_TOOL.test(type)) throw unavailable('tools', `the ${type} tool is`);
    // Another Anthropic-defined tool the translation has no form for (tool search…) may be left out, unless it is forced.
    const name = isPlainObject(tool) ? tool.name : undefined;
    // Built-in ones (web search, code execution) are judged by refuseForcedBuiltin.
    const carried = request.tools?.some((unified) => unified.name === name) || /^(web_search|code_execution)_/.test(type);
    if (type && type !== 'custom' && forced !== undefined && forced === name && !carried) throw unavailable('tool_choice', `forcing the ${type} tool is`);
  }
}

function unavailable(param: string, what: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${what} not available on this platform`, { param });
}
