import { GatewayError } from '../../errors/gateway-error';
import { refuseUntranslatableFields } from '../shared/refuse-untranslatable-fields';
import type { UnifiedRequest } from '../../unified/unified-request';
import type { Converted } from '../codec';
import { assertStatelessRequest } from '../shared/assert-stateless-request';
import { encodeMessagesThinking } from './encode-messages-thinking';
import { isAdaptiveOnlyClaude } from './is-adaptive-only-claude';
import { encodeMessagesToolChoice } from './encode-messages-tool-choice';
import { encodeMessagesTools } from './encode-messages-tools';
import { encodeMessagesTurns, isBlankText } from './encode-messages-turns';
import { hasUnsignedToolTurn } from './has-unsigned-tool-turn';
import type { MessagesExtensions, MessagesOutputConfig, MessagesRawBlock } from './messages-types';
import { encodeOutputSchema } from './encode-output-schema';
import { uniqueTools } from '../shared/unique-tools';
import { JSON_MODE_INSTRUCTION } from '../shared/json-mode-instruction';
import { systemOnlyAsUserTurn } from '../shared/system-only-request';
import { stripThinkingBlocks } from './strip-thinking-blocks';

/** Extension keys this encoder merges itself; every other extension is copied back verbatim. */
const MERGED_EXTENSIONS = new Set(['system', 'tools', 'thinking', 'output_config', 'metadata']);

/** System strings → text blocks; a block the client sent with cache_control/citations is reused when its text is unchanged. */
function encodeSystem(system: string[], raw: MessagesRawBlock[] | undefined): MessagesRawBlock[] | undefined {
  const unused = [...(raw ?? [])];
  const blocks = system
    .filter((text) => !isBlankText(text))
    .map((text) => {
      const index = unused.findIndex((b) => b.type === 'text' && b.text === text);
      return index >= 0 ? unused.splice(index, 1)[0] : { type: 'text', text };
    });
  return blocks.length > 0 ? blocks : undefined;
}

interface Sampling {
  temperature?: number;
  top_p?: number;
  top_k?: number;
}

/**
 * With thinking the API takes temperature 1 only, top_p ≥ 0.95 and no top_k; its temperature range is 0..1. Claude
 * models since Opus 4.1 and the 4.5 family refuse temperature and top_p together (400 "cannot both be specified"),
 * which chat clients often send (`top_p: 1` as a default): temperature is kept, top_p dropped.
 */
function encodeSampling(request: UnifiedRequest, thinkingOn: boolean, warnings: string[]): Sampling {
  const out: Sampling = {};
  if (isAdaptiveOnlyClaude(request.model)) {
    // Opus 4.7 and later take no sampling parameters at all (a 400 when sent).
    for (const [name, value] of [['temperature', request.temperature], ['top_p', request.topP], ['top_k', request.topK]] as const) {
      if (value !== undefined) warnings.push(`${name}: dropped, ${request.model} takes no sampling parameters`);
    }
    return out;
  }
  if (request.temperature !== undefined) {
    if (thinkingOn && request.temperature !== 1) warnings.push('temperature: dropped, thinking requires the default');
    else if (request.temperature > 1) {
      warnings.push(`temperature: ${request.temperature} clamped to 1`);
      out.temperature = 1;
    } else out.temperature = request.temperature;
  }
  if (request.topP !== undefined) {
    if (thinkingOn && request.topP < 0.95) warnings.push('top_p: dropped, thinking requires top_p >= 0.95');
    else if (out.temperature !== undefined) warnings.push('top_p: dropped, Claude takes temperature or top_p, not both');
    else out.top_p = request.topP;
  }
  if (request.topK !== undefined) {
    if (thinkingOn) warnings.push('top_k: dropped, not allowed with thinking');
    else out.top_k = request.topK;
  }
  return out;
}

function encodeOutputConfig(request: UnifiedRequest, effort: string | undefined, ext: MessagesExtensions, warnings: string[]): MessagesOutputConfig | undefined {
  const { effort: _effort, format: _format, ...rest } = ext.output_config ?? {};
  const out: MessagesOutputConfig = { ...rest };
  if (effort !== undefined) out.effort = effort;
  const format = request.responseFormat;
  if (format?.type === 'json_schema') out.format = { type: 'json_schema', schema: encodeOutputSchema(format.schema) };
  return Object.keys(out).length > 0 ? out : undefined;
}

function warnUnsupported(request: UnifiedRequest, warnings: string[]): void {
  if (request.seed !== undefined) warnings.push('seed: not supported by the Messages API, dropped');
  if (request.presencePenalty !== undefined) warnings.push('presence_penalty: not supported by the Messages API, dropped');
  if (request.frequencyPenalty !== undefined) warnings.push('frequency_penalty: not supported by the Messages API, dropped');
  if (request.outputModalities?.some((m) => m !== 'text')) warnings.push('output modalities: the Messages API answers text only');
}

/**
 * Unified request → a Messages request body for an Anthropic-format upstream. `max_tokens` is always
 * set (4096 when the request has none). What the API cannot express and that would change the answer
 * (audio/video input, unparsable tool arguments) throws; what it can safely drop is listed in `warnings`.
 */
export function encodeMessagesRequest(asked: UnifiedRequest): Converted<Record<string, unknown>> {
  const request = systemOnlyAsUserTurn(asked);
  refuseUntranslatableFields(request, 'messages');
  assertStatelessRequest(request, 'messages');
  const warnings: string[] = [];
  const ext: MessagesExtensions = request.extensions?.messages ?? {};

  const messages = encodeMessagesTurns(request.messages, warnings);
  if (messages.length === 0) {
    throw new GatewayError('GW_INVALID_REQUEST', 'messages: at least one message with content is required', { param: 'messages' });
  }
  // JSON mode has no Messages form (a schema has: output_config.format): the model is asked for JSON in words.
  const system = encodeSystem(request.responseFormat?.type === 'json_object' ? [...request.system, JSON_MODE_INSTRUCTION] : request.system, ext.system);
  const tools = encodeMessagesTools(uniqueTools(request.tools, warnings), request.builtinTools, ext.tools, warnings);
  const toolChoice = encodeMessagesToolChoice(request.toolChoice, request.parallelToolCalls, tools !== undefined);
  const forced = toolChoice?.type === 'any' || toolChoice?.type === 'tool';
  const prefill = messages[messages.length - 1].role === 'assistant';
  const thinking = encodeMessagesThinking(request, ext, { forcedToolChoice: forced, unsignedToolTurn: hasUnsignedToolTurn(messages), prefill }, warnings);
  const thinkingOn = thinking.thinking !== undefined && thinking.thinking.type !== 'disabled';
  // Thinking asked for but left out (forced tool use, a prefill, an unsigned tool turn) or switched off: the turns go
  // without thinking blocks. A request that says nothing of thinking keeps them, as the model's default decides.
  const sentMessages = thinkingOn || request.reasoning === undefined ? messages : stripThinkingBlocks(messages);
  const outputConfig = encodeOutputConfig(request, thinking.effort, ext, warnings);
  const stop = request.stop?.filter((s) => s.trim() !== '');
  if (stop && stop.length !== request.stop?.length) warnings.push('stop: whitespace-only stop sequences dropped');
  const metadata = { ...ext.metadata, ...(request.user !== undefined ? { user_id: request.user } : {}) };
  warnUnsupported(request, warnings);

  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: thinking.maxTokens,
    ...(system ? { system } : {}),
    messages: sentMessages,
    ...(tools ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(thinking.thinking ? { thinking: thinking.thinking } : {}),
    ...(outputConfig ? { output_config: outputConfig } : {}),
    ...encodeSampling(request, thinkingOn, warnings),
    ...(stop && stop.length > 0 ? { stop_sequences: stop } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    ...(request.stream ? { stream: true } : {}),
  };
  for (const [key, value] of Object.entries(ext)) {
    if (!MERGED_EXTENSIONS.has(key) && !(key in body)) body[key] = value;
  }
  return { value: body, warnings };
}
