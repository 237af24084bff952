import { GatewayError } from '../../errors/gateway-error';
import type {
  UnifiedMediaPart,
  UnifiedMessage,
  UnifiedPart,
  UnifiedTextPart,
  UnifiedToolResultPart,
} from '../../unified/unified-request';
import { decodeMessagesMedia } from './decode-messages-media';
import type { MessagesMessage, MessagesRawBlock } from './messages-types';

export interface DecodedMessagesTurns {
  /** Text of `role: "system"` messages that come before any other turn. */
  leadingSystem: string[];
  messages: UnifiedMessage[];
}

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${detail}`, { param });
}

function cacheControlOf(block: MessagesRawBlock): { cacheControl?: Record<string, unknown> } {
  return block.cache_control && typeof block.cache_control === 'object'
    ? { cacheControl: block.cache_control as Record<string, unknown> }
    : {};
}

function textPart(block: MessagesRawBlock): UnifiedTextPart {
  return { type: 'text', text: block.text as string, ...cacheControlOf(block) };
}

/** A `search_result` block (RAG input) has no unified form; its title, source and text are kept as text. */
function searchResultText(block: MessagesRawBlock): UnifiedTextPart {
  const inner = (block.content as MessagesRawBlock[]).filter((b) => b.type === 'text').map((b) => b.text as string);
  const head = [block.title, block.source].filter((v): v is string => typeof v === 'string' && v.length > 0);
  return { type: 'text', text: [...head, ...inner].join('\n'), ...cacheControlOf(block) };
}

function decodeToolResult(block: MessagesRawBlock, path: string): UnifiedToolResultPart {
  const content: Array<UnifiedTextPart | UnifiedMediaPart> = [];
  const raw = block.content as string | MessagesRawBlock[] | undefined;
  if (typeof raw === 'string') {
    content.push({ type: 'text', text: raw });
  } else if (raw) {
    raw.forEach((inner, k) => {
      const innerPath = `${path}.content[${k}]`;
      if (inner.type === 'text') content.push(textPart(inner));
      else if (inner.type === 'image' || inner.type === 'document') content.push(...decodeMessagesMedia(inner, innerPath));
      else if (inner.type === 'search_result') content.push(searchResultText(inner));
      // Other blocks (tool_reference, browser_state…) steer Anthropic-side features and carry no content.
    });
  }
  return {
    type: 'tool_result',
    toolCallId: block.tool_use_id as string,
    content,
    ...(block.is_error === true ? { isError: true } : {}),
    ...cacheControlOf(block),
  };
}

/** One block of a user turn: content parts, or a tool result (split into a `tool` message by the caller). */
function decodeUserBlock(block: MessagesRawBlock, path: string): UnifiedPart[] {
  switch (block.type) {
    case 'text':
      return [textPart(block)];
    case 'image':
    case 'document':
      return decodeMessagesMedia(block, path);
    case 'search_result':
      return [searchResultText(block)];
    case 'tool_result':
      return [decodeToolResult(block, path)];
    case 'tool_use':
    case 'thinking':
    case 'redacted_thinking':
      throw invalid(`${path}.type`, `"${block.type}" blocks are only allowed in assistant turns`);
    default:
      throw invalid(`${path}.type`, `"${block.type}" is not a supported block type in a user turn`);
  }
}

/** One block of an assistant turn; undefined for blocks of Anthropic-side tools that no other format can hold. */
function decodeAssistantBlock(block: MessagesRawBlock, path: string): UnifiedPart | undefined {
  switch (block.type) {
    case 'text':
      return textPart(block);
    case 'thinking':
      return {
        type: 'reasoning',
        text: block.thinking as string,
        ...(typeof block.signature === 'string' ? { signature: block.signature } : {}),
        provider: 'messages',
      };
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redactedData: block.data as string, provider: 'messages' };
    case 'tool_use':
      return {
        type: 'tool_call',
        id: block.id as string,
        name: block.name as string,
        arguments: JSON.stringify(block.input),
        ...cacheControlOf(block),
      };
    // A compaction block's summary stands in for the history it replaced; keep it as text.
    case 'compaction':
      return typeof block.content === 'string' && block.content ? { type: 'text', text: block.content } : undefined;
    // An image the gateway gave this client in an answer (a Gemini image model's), sent back with the conversation.
    case 'image':
      return decodeMessagesMedia(block, path)[0];
    case 'tool_result':
    case 'document':
      throw invalid(`${path}.type`, `"${block.type}" blocks are only allowed in user turns`);
    default:
      // server_tool_use, web_search_tool_result, mcp_tool_use… are the upstream's own records of
      // server-side work; the answer text that follows them already carries their result.
      return undefined;
  }
}

function systemTexts(message: MessagesMessage): UnifiedTextPart[] {
  if (message.content === undefined) return [];
  if (typeof message.content === 'string') return message.content ? [{ type: 'text', text: message.content }] : [];
  // Beta system messages may also carry tool addition/removal blocks, which steer Anthropic-side tool search only.
  return message.content.filter((b) => b.type === 'text').map(textPart);
}

function pushUserTurn(out: UnifiedMessage[], parts: UnifiedPart[]): void {
  let run: UnifiedMessage | undefined;
  for (const part of parts) {
    const role = part.type === 'tool_result' ? 'tool' : 'user';
    if (!run || run.role !== role) {
      run = { role, content: [] };
      out.push(run);
    }
    run.content.push(part);
  }
}

/**
 * Messages turns → unified messages. Tool results are split out of user turns into `tool` messages,
 * in order; `role: "system"` messages (Claude Code sends one mid-conversation) stay in place unless
 * they lead the conversation, in which case they join the top-level system prompt.
 */
export function decodeMessagesTurns(messages: MessagesMessage[]): DecodedMessagesTurns {
  const leadingSystem: string[] = [];
  const out: UnifiedMessage[] = [];
  let conversationStarted = false;
  messages.forEach((message, i) => {
    const path = `messages[${i}].content`;
    if (message.role === 'system') {
      const texts = systemTexts(message);
      if (!conversationStarted) leadingSystem.push(...texts.map((t) => t.text));
      else if (texts.length > 0) out.push({ role: 'system', content: texts });
      return;
    }
    conversationStarted = true;
    const blocks: MessagesRawBlock[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
    if (message.role === 'user') {
      pushUserTurn(out, blocks.flatMap((block, j) => decodeUserBlock(block, `${path}[${j}]`)));
      return;
    }
    const parts = blocks
      .map((block, j) => decodeAssistantBlock(block, `${path}[${j}]`))
      .filter((part): part is UnifiedPart => part !== undefined);
    if (parts.length > 0) out.push({ role: 'assistant', content: parts });
  });
  return { leadingSystem, messages: out };
}
