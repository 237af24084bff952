import type { RequestEcho } from '../../unified/unified-request';
import type { UnifiedResponse } from '../../unified/unified-response';
import { createTextOffsetMap } from '../shared/text-offset-map';
import { toPrefixedId } from '../shared/to-prefixed-id';
import { encodeUrlCitations } from './encode-url-citations';
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
  // Where the answer's text landed in `content`, for citations.
  const offsets = createTextOffsetMap<0>();
  let contentLength = 0;
  for (const part of response.content) {
    if (part.type === 'text') {
      offsets.add(part.text.length, part.refusal ? undefined : { key: 0, offset: contentLength });
      if (!part.refusal) contentLength += part.text.length;
      (part.refusal ? refusal : text).push(part.text);
    } else if (part.type === 'reasoning') {
      if (part.text) reasoning.push(part.text);
    } else if (part.type === 'tool_call') {
      toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
    } else {
      const markdown = encodeChatMediaMarkdown(part);
      contentLength += markdown.length;
      text.push(markdown);
    }
  }
  const message: ChatCompletionsResponseMessage = {
    role: 'assistant',
    content: text.length > 0 ? text.join('') : toolCalls.length > 0 || refusal.length > 0 ? null : '',
  };
  if (reasoning.length > 0) message.reasoning_content = reasoning.join('');
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  message.refusal = refusal.length > 0 ? refusal.join('') : null;
  message.annotations = encodeUrlCitations(response.citations ?? [], offsets);
  return {
    id: toPrefixedId('chatcmpl-', response.id),
    object: 'chat.completion',
    created: response.created,
    model: response.model || request.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: encodeChatCompletionsFinishReason(response.finishReason) }],
    usage: encodeChatCompletionsUsage(response.usage),
  };
}
