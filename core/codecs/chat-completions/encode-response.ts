import type { RequestEcho } from '../../unified/unified-request';
import type { UnifiedResponse } from '../../unified/unified-response';
import { toPrefixedId } from '../shared/to-prefixed-id';
import type { ChatCompletionsResponse, ChatCompletionsResponseMessage } from './chat-completions-types';
import { encodeChatCompletionsFinishReason } from './map-chat-completions-finish-reason';
import { encodeChatCompletionsUsage } from './encode-chat-completions-usage';
import { encodeChatMediaMarkdown } from './encode-chat-media-markdown';

/** Unified response → `chat.completion` body. Reasoning text goes in `reasoning_content` on the message. */
export function encodeChatCompletionsResponse(response: UnifiedResponse, request: RequestEcho): ChatCompletionsResponse {
  const text: string[] = [];
  const refusal: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: NonNullable<ChatCompletionsResponseMessage['tool_calls']> = [];
  for (const part of response.content) {
    if (part.type === 'text') (part.refusal ? refusal : text).push(part.text);
    else if (part.type === 'reasoning') {
      if (part.text) reasoning.push(part.text);
    } else if (part.type === 'tool_call') {
      toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
    } else {
      text.push(encodeChatMediaMarkdown(part));
    }
  }
  const message: ChatCompletionsResponseMessage = {
    role: 'assistant',
    content: text.length > 0 ? text.join('') : toolCalls.length > 0 || refusal.length > 0 ? null : '',
  };
  if (reasoning.length > 0) message.reasoning_content = reasoning.join('');
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  message.refusal = refusal.length > 0 ? refusal.join('') : null;
  message.annotations = [];
  return {
    id: toPrefixedId('chatcmpl-', response.id),
    object: 'chat.completion',
    created: response.created,
    model: response.model || request.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: encodeChatCompletionsFinishReason(response.finishReason) }],
    usage: encodeChatCompletionsUsage(response.usage),
  };
}
