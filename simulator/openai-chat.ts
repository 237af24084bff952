import { isRecord, openStream, playFrames, sendJson, sseData, type Frame } from './http-util';
import { errorEnvelope, missingParameter, openAiEndings, sendOpenAiError, statusError } from './openai-errors';
import { contentText, planAnswer, SIM_CREATED, simId, type Prompt, type Scenario } from './scenario';
import type { Exchange } from './types';

/** OpenAI `POST /v1/chat/completions`, stream and not. */

const FINGERPRINT = 'fp_sim0000000';
const OBFUSCATION = ['a1B2c3', 'q7Rk2', 'mZ8vTq1', 'P0a'];

function firstFunction(body: Record<string, unknown>): Prompt['tool'] {
  const tools = Array.isArray(body.tools) ? body.tools : Array.isArray(body.functions) ? body.functions : [];
  for (const tool of tools) {
    if (!isRecord(tool)) continue;
    const fn = isRecord(tool.function) ? tool.function : tool;
    if (typeof fn.name === 'string') return { name: fn.name, schema: fn.parameters };
  }
  return undefined;
}

function toPrompt(body: Record<string, unknown>): Prompt {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const isResult = (m: Record<string, unknown>): boolean => m.role === 'tool' || m.role === 'function';
  const results: Record<string, unknown>[] = [];
  for (let i = messages.length - 1; i >= 0 && isResult(messages[i]); i -= 1) results.unshift(messages[i]);
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  return {
    lastText: results.length > 0 ? results.map((m) => contentText(m.content)).join('\n') : contentText(lastUser?.content),
    toolResult: results.length > 0,
    inputText: messages.map((m) => contentText(m.content)).filter(Boolean).join('\n'),
    tool: firstFunction(body),
  };
}

function usage(scenario: Scenario): Record<string, unknown> {
  return {
    prompt_tokens: scenario.inputTokens,
    completion_tokens: scenario.outputTokens,
    total_tokens: scenario.inputTokens + scenario.outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: scenario.thinkingTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

interface Ids {
  completion: string;
  call: string;
}

function completion(model: string, scenario: Scenario, ids: Ids): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: scenario.toolCall ? null : scenario.text };
  if (scenario.thinking) message.reasoning_content = scenario.thinking.text;
  if (scenario.toolCall) {
    message.tool_calls = [{ id: ids.call, type: 'function', function: { name: scenario.toolCall.name, arguments: scenario.toolCall.json } }];
  }
  message.refusal = null;
  message.annotations = [];
  return {
    id: ids.completion,
    object: 'chat.completion',
    created: SIM_CREATED,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: scenario.toolCall ? 'tool_calls' : 'stop' }],
    usage: usage(scenario),
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
  };
}

interface StreamFlags {
  includeUsage: boolean;
  obfuscate: boolean;
}

function streamFrames(model: string, scenario: Scenario, ids: Ids, flags: StreamFlags): Frame[] {
  const frames: Frame[] = [];
  const chunk = (choices: unknown[], paced: boolean, usageValue: unknown = null): void => {
    const value: Record<string, unknown> = {
      id: ids.completion,
      object: 'chat.completion.chunk',
      created: SIM_CREATED,
      model,
      service_tier: 'default',
      system_fingerprint: FINGERPRINT,
      choices,
    };
    if (flags.includeUsage) value.usage = usageValue;
    if (flags.obfuscate) value.obfuscation = OBFUSCATION[frames.length % OBFUSCATION.length];
    frames.push({ text: sseData(value), paced });
  };
  const delta = (value: Record<string, unknown>, paced: boolean, finish: string | null = null): void =>
    chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finish }], paced);

  const { toolCall } = scenario;
  const callStart = toolCall && { index: 0, id: ids.call, type: 'function', function: { name: toolCall.name, arguments: '' } };
  if (callStart && !scenario.thinking) {
    delta({ role: 'assistant', content: null, tool_calls: [callStart], refusal: null }, false);
  } else {
    delta({ role: 'assistant', content: toolCall ? null : '', refusal: null }, false);
  }
  for (const piece of scenario.thinking?.chunks ?? []) delta({ reasoning_content: piece }, true);
  if (scenario.midstreamError) {
    delta({ content: scenario.textChunks[0] }, true);
    frames.push({ text: sseData(errorEnvelope(statusError(500, model))), paced: true });
    return frames;
  }
  if (toolCall) {
    if (callStart && scenario.thinking) delta({ tool_calls: [callStart] }, false);
    for (const piece of toolCall.fragments) delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, true);
  } else {
    for (const piece of scenario.textChunks) delta({ content: piece }, true);
  }
  delta({}, false, toolCall ? 'tool_calls' : 'stop');
  if (flags.includeUsage) chunk([], false, usage(scenario));
  frames.push({ text: sseData('[DONE]'), paced: false });
  return frames;
}

export async function createChatCompletion(exchange: Exchange, body: Record<string, unknown>): Promise<void> {
  if (typeof body.model !== 'string') return sendOpenAiError(exchange, { ...missingParameter('model'), message: 'you must provide a model parameter' });
  if (!Array.isArray(body.messages)) return sendOpenAiError(exchange, missingParameter('messages'));
  const model = body.model;
  const stream = body.stream === true;
  const scenario = planAnswer(toPrompt(body), exchange.settings, stream, openAiEndings(exchange, model));
  if (!scenario) return;
  const counter = exchange.nextId();
  const ids: Ids = { completion: `chatcmpl-${simId(counter, 29)}`, call: `call_${simId(counter)}` };
  if (!stream) return sendJson(exchange.res, 200, completion(model, scenario, ids));

  const options = isRecord(body.stream_options) ? body.stream_options : {};
  const flags: StreamFlags = { includeUsage: options.include_usage === true, obfuscate: options.include_obfuscation !== false };
  openStream(exchange.res, 'text/event-stream; charset=utf-8');
  await playFrames(exchange, streamFrames(model, scenario, ids, flags), scenario.delayMs);
}
