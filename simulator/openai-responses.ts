import { isRecord, openStream, playFrames, sendJson, sseEvent, type Frame } from './http-util';
import { missingParameter, openAiEndings, SERVER_ERROR_MESSAGE, sendOpenAiError } from './openai-errors';
import { contentText, planAnswer, SIM_CREATED, simId, type Prompt, type Scenario } from './scenario';
import type { Exchange } from './types';

/** OpenAI `POST /v1/responses`, stream and not: the full event sequence numbered by `sequence_number`. */

const OBFUSCATION = ['k2Lm9Qw1', 'pZ7xR', 'T0bN4v', 'qW8e'];

function outputText(output: unknown): string {
  return typeof output === 'string' ? output : contentText(output);
}

function toPrompt(body: Record<string, unknown>): Prompt {
  const instructions = typeof body.instructions === 'string' ? body.instructions : '';
  if (typeof body.input === 'string') {
    return { lastText: body.input, toolResult: false, inputText: [instructions, body.input].filter(Boolean).join('\n'), tool: firstFunction(body) };
  }
  const items = Array.isArray(body.input) ? body.input.filter(isRecord) : [];
  const results: Record<string, unknown>[] = [];
  for (let i = items.length - 1; i >= 0 && items[i].type === 'function_call_output'; i -= 1) results.unshift(items[i]);
  const lastUser = [...items].reverse().find((item) => item.role === 'user' && (item.type === undefined || item.type === 'message'));
  const itemText = (item: Record<string, unknown>): string =>
    item.type === 'function_call_output' ? outputText(item.output) : contentText(item.content);
  return {
    lastText: results.length > 0 ? results.map((r) => outputText(r.output)).join('\n') : contentText(lastUser?.content),
    toolResult: results.length > 0,
    inputText: [instructions, ...items.map(itemText)].filter(Boolean).join('\n'),
    tool: firstFunction(body),
  };
}

function firstFunction(body: Record<string, unknown>): Prompt['tool'] {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
  const tool = tools.find((t) => t.type === 'function' && typeof t.name === 'string');
  return tool ? { name: String(tool.name), schema: tool.parameters } : undefined;
}

interface Ids {
  response: string;
  reasoning: string;
  message: string;
  functionCall: string;
  call: string;
}

interface Rendering {
  body: Record<string, unknown>;
  model: string;
  scenario: Scenario;
  ids: Ids;
  encryptedReasoning: boolean;
}

function reasoningItem(r: Rendering, done: boolean): Record<string, unknown> {
  const item: Record<string, unknown> = { id: r.ids.reasoning, type: 'reasoning' };
  if (r.encryptedReasoning) item.encrypted_content = Buffer.from(`sim-reasoning-${r.ids.reasoning}`).toString('base64');
  item.summary = done && r.scenario.thinking ? [{ type: 'summary_text', text: r.scenario.thinking.text }] : [];
  return item;
}

function textPart(text: string): Record<string, unknown> {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

function messageItem(r: Rendering, done: boolean): Record<string, unknown> {
  return {
    id: r.ids.message,
    type: 'message',
    status: done ? 'completed' : 'in_progress',
    content: done ? [textPart(r.scenario.text)] : [],
    role: 'assistant',
  };
}

function functionCallItem(r: Rendering, done: boolean): Record<string, unknown> {
  return {
    id: r.ids.functionCall,
    type: 'function_call',
    status: done ? 'completed' : 'in_progress',
    arguments: done ? r.scenario.toolCall?.json ?? '' : '',
    call_id: r.ids.call,
    name: r.scenario.toolCall?.name ?? '',
  };
}

function outputItems(r: Rendering): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (r.scenario.thinking) items.push(reasoningItem(r, true));
  items.push(r.scenario.toolCall ? functionCallItem(r, true) : messageItem(r, true));
  return items;
}

function field(value: unknown, fallback: unknown): unknown {
  return value === undefined ? fallback : value;
}

function responseObject(r: Rendering, done: boolean): Record<string, unknown> {
  const { body, scenario } = r;
  const reasoning = isRecord(body.reasoning) ? body.reasoning : {};
  return {
    id: r.ids.response,
    object: 'response',
    created_at: SIM_CREATED,
    status: done ? 'completed' : 'in_progress',
    background: false,
    completed_at: done ? SIM_CREATED + 1 : null,
    error: null,
    incomplete_details: null,
    instructions: field(body.instructions, null),
    max_output_tokens: field(body.max_output_tokens, null),
    max_tool_calls: field(body.max_tool_calls, null),
    model: r.model,
    output: done ? outputItems(r) : [],
    parallel_tool_calls: field(body.parallel_tool_calls, true),
    previous_response_id: field(body.previous_response_id, null),
    prompt_cache_key: field(body.prompt_cache_key, null),
    reasoning: { effort: field(reasoning.effort, null), summary: field(reasoning.summary, null) },
    safety_identifier: null,
    service_tier: done ? 'default' : 'auto',
    store: field(body.store, true),
    temperature: field(body.temperature, 1.0),
    text: field(body.text, { format: { type: 'text' }, verbosity: 'medium' }),
    tool_choice: field(body.tool_choice, 'auto'),
    tools: field(body.tools, []),
    top_logprobs: 0,
    top_p: field(body.top_p, 1.0),
    truncation: 'disabled',
    usage: done
      ? {
          input_tokens: scenario.inputTokens,
          input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
          output_tokens: scenario.outputTokens,
          output_tokens_details: { reasoning_tokens: scenario.thinkingTokens },
          total_tokens: scenario.inputTokens + scenario.outputTokens,
        }
      : null,
    user: null,
    metadata: field(body.metadata, {}),
  };
}

function streamFrames(r: Rendering): Frame[] {
  const frames: Frame[] = [];
  const emit = (type: string, fields: Record<string, unknown>, paced = false): void => {
    frames.push({ text: sseEvent(type, { type, sequence_number: frames.length, ...fields }), paced });
  };
  const obfuscation = (): string => OBFUSCATION[frames.length % OBFUSCATION.length];
  const { scenario, ids } = r;
  let outputIndex = 0;

  emit('response.created', { response: responseObject(r, false) });
  emit('response.in_progress', { response: responseObject(r, false) });
  if (scenario.thinking) {
    const at = { item_id: ids.reasoning, output_index: outputIndex, summary_index: 0 };
    emit('response.output_item.added', { output_index: outputIndex, item: reasoningItem(r, false) });
    emit('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
    for (const piece of scenario.thinking.chunks) emit('response.reasoning_summary_text.delta', { ...at, delta: piece, obfuscation: obfuscation() }, true);
    emit('response.reasoning_summary_text.done', { ...at, text: scenario.thinking.text });
    emit('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text: scenario.thinking.text } });
    emit('response.output_item.done', { output_index: outputIndex, item: reasoningItem(r, true) });
    outputIndex += 1;
  }
  if (scenario.toolCall) {
    const at = { item_id: ids.functionCall, output_index: outputIndex };
    emit('response.output_item.added', { output_index: outputIndex, item: functionCallItem(r, false) });
    for (const piece of scenario.toolCall.fragments) emit('response.function_call_arguments.delta', { ...at, delta: piece, obfuscation: obfuscation() }, true);
    emit('response.function_call_arguments.done', { item_id: ids.functionCall, name: scenario.toolCall.name, output_index: outputIndex, arguments: scenario.toolCall.json });
    emit('response.output_item.done', { output_index: outputIndex, item: functionCallItem(r, true) });
  } else {
    const at = { item_id: ids.message, output_index: outputIndex, content_index: 0 };
    emit('response.output_item.added', { output_index: outputIndex, item: messageItem(r, false) });
    emit('response.content_part.added', { ...at, part: textPart('') });
    const pieces = scenario.midstreamError ? scenario.textChunks.slice(0, 1) : scenario.textChunks;
    for (const piece of pieces) emit('response.output_text.delta', { ...at, delta: piece, logprobs: [], obfuscation: obfuscation() }, true);
    if (scenario.midstreamError) {
      emit('error', { code: 'server_error', message: SERVER_ERROR_MESSAGE, param: null }, true);
      return frames;
    }
    emit('response.output_text.done', { ...at, text: scenario.text, logprobs: [] });
    emit('response.content_part.done', { ...at, part: textPart(scenario.text) });
    emit('response.output_item.done', { output_index: outputIndex, item: messageItem(r, true) });
  }
  emit('response.completed', { response: responseObject(r, true) });
  return frames;
}

export async function createResponse(exchange: Exchange, body: Record<string, unknown>): Promise<void> {
  if (typeof body.model !== 'string') return sendOpenAiError(exchange, missingParameter('model'));
  const model = body.model;
  const stream = body.stream === true;
  const scenario = planAnswer(toPrompt(body), exchange.settings, stream, openAiEndings(exchange, model));
  if (!scenario) return;
  const counter = exchange.nextId();
  const include = Array.isArray(body.include) ? body.include : [];
  const rendering: Rendering = {
    body,
    model,
    scenario,
    ids: {
      response: `resp_${simId(counter, 48)}`,
      reasoning: `rs_${simId(counter, 48)}`,
      message: `msg_${simId(counter, 48)}`,
      functionCall: `fc_${simId(counter, 48)}`,
      call: `call_${simId(counter)}`,
    },
    encryptedReasoning: include.includes('reasoning.encrypted_content'),
  };
  if (!stream) return sendJson(exchange.res, 200, responseObject(rendering, true));
  openStream(exchange.res, 'text/event-stream; charset=utf-8');
  await playFrames(exchange, streamFrames(rendering), scenario.delayMs);
}
