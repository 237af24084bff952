import { handleAnthropicWebSearch } from './anthropic-web-search';
import { credentialBehaviour, estimateTokens } from './directives';
import { bearerToken, headerValue, isRecord, openStream, playFrames, safeDecode, sendJson, sseEvent, type Frame } from './http-util';
import { contentText, planAnswer, simId, type Prompt, type Scenario } from './scenario';
import type { Exchange } from './types';

/** Anthropic Messages API: `/v1/messages` (stream and not), `/v1/messages/count_tokens`, `/v1/models`. */

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const ERROR_MESSAGES: Record<number, string> = {
  400: 'max_tokens: Field required',
  401: 'invalid x-api-key',
  403: 'Your API key does not have permission to use the specified resource.',
  404: 'Not found',
  429:
    'This request would exceed the rate limit for your organization (3f2a9c1e-0b7d-4e55-9a61-2c8d4b7e1f03) of 30,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.',
  500: 'Internal server error',
  529: 'Overloaded',
};

const MODELS = [
  { id: 'claude-sonnet-4-6', display_name: 'Claude Sonnet 4.6', created_at: '2026-02-17T00:00:00Z' },
  { id: 'claude-opus-4-6', display_name: 'Claude Opus 4.6', created_at: '2026-02-05T00:00:00Z' },
  { id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5', created_at: '2025-10-15T00:00:00Z' },
];

const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';
const PING = 'event: ping\ndata: {"type": "ping"}\n\n';

function errorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

function sendError(exchange: Exchange, status: number, requestId: string, message?: string): void {
  const text = message ?? ERROR_MESSAGES[status] ?? `Simulated error ${status}`;
  const headers: Record<string, string> = { 'request-id': requestId };
  if (status === 429) headers['retry-after'] = '1';
  sendJson(
    exchange.res,
    status,
    { type: 'error', error: { type: errorType(status), message: text }, request_id: requestId },
    headers,
  );
}

function blockText(block: unknown): string {
  if (!isRecord(block)) return '';
  if (block.type === 'text' && typeof block.text === 'string') return block.text;
  if (block.type === 'tool_result') return contentText(block.content);
  return '';
}

function messageText(content: unknown): string {
  return typeof content === 'string' ? content : Array.isArray(content) ? content.map(blockText).join('') : '';
}

function toPrompt(body: Record<string, unknown>): Prompt {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const last = messages.at(-1);
  const results = last && last.role === 'user' && Array.isArray(last.content)
    ? last.content.filter((b): b is Record<string, unknown> => isRecord(b) && b.type === 'tool_result')
    : [];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const tool = Array.isArray(body.tools)
    ? body.tools.find((t): t is Record<string, unknown> => isRecord(t) && typeof t.name === 'string' && 'input_schema' in t)
    : undefined;
  return {
    lastText: results.length > 0 ? results.map(blockText).join('\n') : messageText(lastUser?.content),
    toolResult: results.length > 0,
    inputText: [messageText(body.system), ...messages.map((m) => messageText(m.content))].filter(Boolean).join('\n'),
    tool: tool ? { name: String(tool.name), schema: tool.input_schema } : undefined,
  };
}

interface Ids {
  message: string;
  toolUse: string;
  signature: string;
}

function contentBlocks(scenario: Scenario, ids: Ids): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  if (scenario.thinking) blocks.push({ type: 'thinking', thinking: scenario.thinking.text, signature: ids.signature });
  if (scenario.toolCall) {
    blocks.push({ type: 'tool_use', id: ids.toolUse, name: scenario.toolCall.name, input: scenario.toolCall.args });
  } else {
    blocks.push({ type: 'text', text: scenario.text });
  }
  return blocks;
}

function startUsage(scenario: Scenario, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: scenario.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: 'standard',
    inference_geo: 'not_available',
  };
}

function messageObject(model: string, scenario: Scenario, ids: Ids, done: boolean): Record<string, unknown> {
  return {
    model,
    id: ids.message,
    type: 'message',
    role: 'assistant',
    content: done ? contentBlocks(scenario, ids) : [],
    stop_reason: done ? (scenario.toolCall ? 'tool_use' : 'end_turn') : null,
    stop_sequence: null,
    stop_details: null,
    usage: startUsage(scenario, done ? scenario.outputTokens : 1),
  };
}

function streamFrames(model: string, scenario: Scenario, ids: Ids): Frame[] {
  const frames: Frame[] = [{ text: sseEvent('message_start', { type: 'message_start', message: messageObject(model, scenario, ids, false) }), paced: false }];
  let index = 0;
  const startBlock = (block: Record<string, unknown>): void => {
    frames.push({ text: sseEvent('content_block_start', { type: 'content_block_start', index, content_block: block }), paced: false });
    if (index === 0) frames.push({ text: PING, paced: false });
  };
  const delta = (value: Record<string, unknown>, paced: boolean): void => {
    frames.push({ text: sseEvent('content_block_delta', { type: 'content_block_delta', index, delta: value }), paced });
  };
  const stopBlock = (): void => {
    frames.push({ text: sseEvent('content_block_stop', { type: 'content_block_stop', index }), paced: false });
    index += 1;
  };

  if (scenario.thinking) {
    startBlock({ type: 'thinking', thinking: '', signature: '' });
    for (const piece of scenario.thinking.chunks) delta({ type: 'thinking_delta', thinking: piece }, true);
    delta({ type: 'signature_delta', signature: ids.signature }, false);
    stopBlock();
  }
  if (scenario.midstreamError) {
    startBlock({ type: 'text', text: '' });
    delta({ type: 'text_delta', text: scenario.textChunks[0] }, true);
    frames.push({ text: sseEvent('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), paced: true });
    return frames;
  }
  if (scenario.toolCall) {
    startBlock({ type: 'tool_use', id: ids.toolUse, name: scenario.toolCall.name, input: {} });
    delta({ type: 'input_json_delta', partial_json: '' }, false);
    for (const piece of scenario.toolCall.fragments) delta({ type: 'input_json_delta', partial_json: piece }, true);
  } else {
    startBlock({ type: 'text', text: '' });
    for (const piece of scenario.textChunks) delta({ type: 'text_delta', text: piece }, true);
  }
  stopBlock();

  const usage: Record<string, unknown> = {
    input_tokens: scenario.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: scenario.outputTokens,
  };
  if (scenario.thinking) usage.output_tokens_details = { thinking_tokens: scenario.thinkingTokens };
  const stopReason = scenario.toolCall ? 'tool_use' : 'end_turn';
  frames.push({
    text: sseEvent('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null, stop_details: null }, usage }),
    paced: false,
  });
  frames.push({ text: sseEvent('message_stop', { type: 'message_stop' }), paced: false });
  return frames;
}

async function createMessage(exchange: Exchange, body: Record<string, unknown>, requestId: string): Promise<void> {
  for (const field of ['model', 'max_tokens', 'messages']) {
    if (body[field] === undefined) return sendError(exchange, 400, requestId, `${field}: Field required`);
  }
  const stream = body.stream === true;
  const scenario = planAnswer(toPrompt(body), exchange.settings, stream, {
    error: (status) => sendError(exchange, status, requestId),
    openStream: () => openStream(exchange.res, SSE_CONTENT_TYPE, { 'request-id': requestId }),
    serverError: () => sendError(exchange, 529, requestId),
  });
  if (!scenario) return;

  const counter = exchange.nextId();
  const ids: Ids = {
    message: `msg_01${simId(counter)}`,
    toolUse: `toolu_01${simId(counter)}`,
    signature: Buffer.from(`sim-signature-${counter}`).toString('base64'),
  };
  const model = String(body.model);
  if (!stream) {
    return sendJson(exchange.res, 200, messageObject(model, scenario, ids, true), { 'request-id': requestId });
  }
  openStream(exchange.res, SSE_CONTENT_TYPE, { 'request-id': requestId });
  await playFrames(exchange, streamFrames(model, scenario, ids), scenario.delayMs);
}

function listModels(exchange: Exchange, requestId: string): void {
  const data = MODELS.map((m) => ({ type: 'model', ...m }));
  sendJson(exchange.res, 200, { data, has_more: false, first_id: data[0].id, last_id: data[data.length - 1].id }, { 'request-id': requestId });
}

export async function handleAnthropic(exchange: Exchange): Promise<void> {
  const { req, method, path, body } = exchange;
  const requestId = `req_011${simId(exchange.nextId())}`;
  const key = headerValue(req.headers['x-api-key']) ?? bearerToken(req);
  if (!key) return sendError(exchange, 401, requestId, 'x-api-key header is required');
  if (!headerValue(req.headers['anthropic-version'])) {
    return sendError(exchange, 400, requestId, 'anthropic-version: header is required');
  }
  const behaviour = credentialBehaviour(key);
  if (behaviour === 'banned') return sendError(exchange, 401, requestId, 'Your account has been suspended');
  if (behaviour) return sendError(exchange, 429, requestId);

  if (method === 'GET' && path === '/v1/models') return listModels(exchange, requestId);
  const model = /^\/v1\/models\/([^/]+)$/.exec(path);
  if (method === 'GET' && model) {
    const found = MODELS.find((m) => m.id === safeDecode(model[1]));
    if (!found) return sendError(exchange, 404, requestId, `model: ${safeDecode(model[1])}`);
    return sendJson(exchange.res, 200, { type: 'model', ...found }, { 'request-id': requestId });
  }
  if (method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens')) {
    return sendError(exchange, 404, requestId, `Not found: ${method} ${path}`);
  }
  if (!isRecord(body)) return sendError(exchange, 400, requestId, 'Request body must be a JSON object');
  if (path === '/v1/messages/count_tokens') {
    return sendJson(exchange.res, 200, { input_tokens: estimateTokens(toPrompt(body).inputText) }, { 'request-id': requestId });
  }
  if (handleAnthropicWebSearch(exchange, body, requestId)) return;
  await createMessage(exchange, body, requestId);
}
