import type { WireEvent } from '../../sse/wire-event';
import type { RequestEcho } from '../../unified/unified-request';
import type { UnifiedStreamEvent } from '../../unified/unified-stream-event';
import type { StreamEncoder } from '../codec';
import { encodeOpenAiStreamError } from '../shared/encode-openai-error';
import { searchesWeb } from '../shared/searches-web';
import { createTextOffsetMap } from '../shared/text-offset-map';
import { toPrefixedId } from '../shared/to-prefixed-id';
import { encodeUrlCitations, type ChatUrlCitation } from './encode-url-citations';
import type { ChatCompletionsChunk, ChatCompletionsDelta } from './chat-completions-types';
import { encodeChatCompletionsUsage } from './encode-chat-completions-usage';
import { encodeChatMediaMarkdown } from './encode-chat-media-markdown';
import { encodeChatCompletionsFinishReason } from './map-chat-completions-finish-reason';

interface ChunkHead {
  id: string;
  created: number;
  model: string;
}

/**
 * Unified events → chat-completion chunks, exactly as spec §6 and the OpenAI stream: a first chunk with
 * `role: assistant` and `content: ""`, content/reasoning/tool-call deltas with `finish_reason: null`, a last
 * chunk with an empty delta and the finish reason, the usage chunk (`choices: []`) only when the client
 * asked `stream_options.include_usage`, then `data: [DONE]`. Every chunk shares id, created and model.
 */
export function createChatCompletionsStreamEncoder(request: RequestEcho): StreamEncoder {
  const includeUsage = request.streamUsage === true;
  let head: ChunkHead | undefined;
  let closed = false;
  /** Where the answer's text landed in `content` (kept only when it can cite sources), and the annotations to send before the finish chunk. */
  const offsets = searchesWeb(request) ? createTextOffsetMap<0>() : undefined;
  let contentLength = 0;
  const annotations: ChatUrlCitation[] = [];

  function chunk(h: ChunkHead, delta: ChatCompletionsDelta | Record<string, never>, finishReason: string | null): WireEvent {
    const body: ChatCompletionsChunk = {
      id: h.id,
      object: 'chat.completion.chunk',
      created: h.created,
      model: h.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
    // OpenAI sends `usage: null` on every chunk but the last when the client asked for usage.
    if (includeUsage) body.usage = null;
    return { data: JSON.stringify(body) };
  }

  function open(id: string, model: string, created: number, out: WireEvent[]): ChunkHead {
    head = { id: toPrefixedId('chatcmpl-', id), created, model: model || request.model };
    out.push(chunk(head, { role: 'assistant', content: '', refusal: null }, null));
    return head;
  }

  /** A decoder always sends `start` first; if one did not, the stream still opens with the role chunk. */
  function ensureHead(out: WireEvent[]): ChunkHead {
    return head ?? open('chatcmpl-gateway', request.model, Math.floor(Date.now() / 1000), out);
  }

  return {
    push(event: UnifiedStreamEvent): WireEvent[] {
      if (closed) return [];
      const out: WireEvent[] = [];
      switch (event.type) {
        case 'start':
          if (!head) open(event.id, event.model, event.created, out);
          return out;
        case 'text_delta':
          offsets?.add(event.text.length, event.refusal ? undefined : { key: 0, offset: contentLength });
          if (!event.refusal) contentLength += event.text.length;
          if (event.text) out.push(chunk(ensureHead(out), event.refusal ? { refusal: event.text } : { content: event.text }, null));
          return out;
        case 'citations':
          // Sent once, all of them, before the finish chunk: the SDKs keep (Node) or cannot merge (Python) a list
          // delta without indexes, so a second one would replace or break the first.
          if (offsets) annotations.push(...encodeUrlCitations(event.citations, offsets));
          return out;
        case 'web_search':
          // Chat has no item for a search; its sources reach the client as the annotations above.
          return out;
        case 'reasoning_delta':
          if (event.text) out.push(chunk(ensureHead(out), { reasoning_content: event.text }, null));
          return out;
        case 'reasoning_signature':
        case 'redacted_reasoning':
        case 'usage':
          // Chat has no place for signatures or opaque reasoning; usage goes out with `finish`.
          return out;
        case 'tool_call_start': {
          const h = ensureHead(out);
          const call = { index: event.index, id: event.id, type: 'function' as const, function: { name: event.name, arguments: '' } };
          out.push(chunk(h, { tool_calls: [call] }, null));
          return out;
        }
        case 'tool_call_delta':
          if (event.argumentsDelta) {
            out.push(chunk(ensureHead(out), { tool_calls: [{ index: event.index, function: { arguments: event.argumentsDelta } }] }, null));
          }
          return out;
        case 'media': {
          const markdown = encodeChatMediaMarkdown({ type: 'image', source: { kind: 'base64', mediaType: event.mediaType, data: event.data } });
          contentLength += markdown.length;
          out.push(chunk(ensureHead(out), { content: markdown }, null));
          return out;
        }
        case 'finish': {
          const h = ensureHead(out);
          closed = true;
          if (annotations.length > 0) out.push(chunk(h, { annotations }, null));
          out.push(chunk(h, {}, encodeChatCompletionsFinishReason(event.finishReason)));
          if (includeUsage) {
            const usageChunk: ChatCompletionsChunk = {
              id: h.id,
              object: 'chat.completion.chunk',
              created: h.created,
              model: h.model,
              choices: [],
              usage: encodeChatCompletionsUsage(event.usage),
            };
            out.push({ data: JSON.stringify(usageChunk) });
          }
          out.push({ data: '[DONE]' });
          return out;
        }
        case 'error':
          // No [DONE] after an error: the SDKs throw on the error chunk (fixtures openai-chat/stream-error.sse).
          closed = true;
          return encodeOpenAiStreamError(event.error);
      }
    },
  };
}
