import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedOutputPart, UnifiedResponse } from '../../unified/unified-response';
import { decodeOpenAiError } from '../shared/decode-openai-error';
import type { ChatCompletionsResponse } from './chat-completions-types';
import { decodeChatCompletionsUsage } from './decode-chat-completions-usage';
import { chatAnswerInterruption, mapChatCompletionsFinishReason } from './map-chat-completions-finish-reason';
import { idOrMint } from '../shared/mint-id';
import { createUniqueCallIds } from '../shared/unique-call-ids';
import { readChatContent, readToolArguments } from './read-chat-answer';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function badResponse(detail: string): GatewayError {
  return new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream chat completion: ${detail}`);
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Upstream chat-completion body → unified response (first choice; the gateway asks for one). */
export function decodeChatCompletionsResponse(body: unknown): UnifiedResponse {
  if (!isRecord(body)) throw badResponse('body is not a JSON object');
  if (isRecord(body.error)) throw decodeOpenAiError(body.error);
  // Some compatible services give the error as a string (`{"error": "Upstream provider error: overloaded"}`).
  if (typeof body.error === 'string' && body.error !== '') throw decodeOpenAiError({ message: body.error });
  if (!Array.isArray(body.choices)) throw badResponse('choices is missing');
  const wire = body as ChatCompletionsResponse; // shape checked above; every field below is read defensively
  const choice = wire.choices.find((c) => isRecord(c) && (c.index ?? 0) === 0) ?? wire.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) throw badResponse('choices[0].message is missing');
  const message = choice.message;

  const content: UnifiedOutputPart[] = [];
  const parts = readChatContent(message.content);
  const reasoning = asString(message.reasoning_content) ?? asString(message.reasoning) ?? parts.reasoning;
  if (reasoning) content.push({ type: 'reasoning', text: reasoning, provider: 'chat-completions' });
  const text = parts.text;
  if (text) content.push({ type: 'text', text });
  else if (asString(message.refusal)) content.push({ type: 'text', text: asString(message.refusal) ?? '', refusal: true });
  const uniqueCallId = createUniqueCallIds();
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    if (!isRecord(call) || !isRecord(call.function)) continue;
    content.push({
      type: 'tool_call',
      id: uniqueCallId(idOrMint(call.id, 'call_')),
      name: asString(call.function.name) ?? '',
      arguments: readToolArguments(call.function.arguments),
    });
  }

  const interruption = chatAnswerInterruption(asString(choice.finish_reason));
  if (interruption) throw interruption;
  const hasToolCalls = content.some((p) => p.type === 'tool_call');
  let finishReason = mapChatCompletionsFinishReason(asString(choice.finish_reason));
  // Some OpenAI-compatible upstreams answer `stop` (or nothing) next to tool calls, others `tool_calls` with none: a
  // Messages client told `tool_use` with no call to run waits for one.
  if (hasToolCalls && (finishReason === 'stop' || finishReason === 'other')) finishReason = 'tool_calls';
  if (!hasToolCalls && finishReason === 'tool_calls') finishReason = 'stop';
  return {
    id: idOrMint(wire.id, 'chatcmpl-'),
    model: asString(wire.model) ?? '',
    created: typeof wire.created === 'number' ? wire.created : Math.floor(Date.now() / 1000),
    content,
    finishReason,
    usage: decodeChatCompletionsUsage(wire.usage),
  };
}
