import { GatewayError } from '../../errors/gateway-error';
import type {
  UnifiedMessage,
  UnifiedPart,
  UnifiedReasoningPart,
  UnifiedToolResultPart,
} from '../../unified/unified-request';
import { parseToolCallArguments } from '../shared/parse-tool-call-arguments';
import { orphanToolResultText } from '../shared/tool-result-as-text';
import { createUniqueCallIds } from '../shared/unique-call-ids';
import { encodeMessagesMedia } from './encode-messages-media';
import type { MessagesContentBlock, MessagesTextBlock, MessagesToolResultBlock } from './messages-types';

export interface MessagesTurn {
  role: 'user' | 'assistant';
  content: MessagesContentBlock[];
}

function invalid(param: string, detail: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${detail}`, { param });
}

/**
 * The request's tool ids as Anthropic takes them: matching `^[a-zA-Z0-9_-]+$`, and unique across the request
 * ("tool_use ids must be unique"), where a conversation may repeat one (a provider numbering calls per answer before the
 * client switched models, two ids that differ in characters Anthropic refuses). A call that repeats an id gets `_2`,
 * `_3`… after it, and a result pairs with the oldest unanswered call of the previous assistant turn given its id.
 */
function createToolIds() {
  const uniqueId = createUniqueCallIds();
  /** Per id the client gave, the calls given it that no result has answered yet, oldest first, and the latest. */
  const unanswered = new Map<string, string[]>();
  const latest = new Map<string, string>();
  const clean = (id: string): string => id.replace(/[^a-zA-Z0-9_-]/g, '_') || 'toolu_0';
  return {
    call(id: string): string {
      const unique = uniqueId(clean(id));
      latest.set(id, unique);
      const waiting = unanswered.get(id);
      if (waiting) waiting.push(unique);
      else unanswered.set(id, [unique]);
      return unique;
    },
    /** The call a result with this id answers: the oldest unanswered one given it among `answerable`, else the latest. */
    result(id: string, answerable: ReadonlySet<string>): string {
      const waiting = unanswered.get(id);
      const at = waiting ? waiting.findIndex((call) => answerable.has(call)) : -1;
      if (waiting && at >= 0) return waiting.splice(at, 1)[0];
      return latest.get(id) ?? clean(id);
    },
  };
}

type ToolIds = ReturnType<typeof createToolIds>;

function cache(part: { cacheControl?: Record<string, unknown> }): { cache_control?: Record<string, unknown> } {
  return part.cacheControl ? { cache_control: part.cacheControl } : {};
}

/**
 * The API rejects a text block that is empty or only whitespace ("text content blocks must contain non-whitespace
 * text"), which other formats carry freely: many chat models stream "\n\n" before their tool calls, and that history
 * then failed every later turn on Claude. Such text says nothing to the model.
 */
export function isBlankText(text: string): boolean {
  return text.trim() === '';
}

function textBlock(text: string, part: { cacheControl?: Record<string, unknown> }): MessagesTextBlock | undefined {
  return isBlankText(text) ? undefined : { type: 'text', text, ...cache(part) };
}

function encodeToolResult(part: UnifiedToolResultPart, path: string, toolUseId: string): MessagesToolResultBlock {
  const blocks = part.content
    .map((inner, k) => (inner.type === 'text' ? textBlock(inner.text, inner) : encodeMessagesMedia(inner, `${path}.content[${k}]`)))
    .filter((b): b is NonNullable<typeof b> => b !== undefined);
  const onlyText = blocks.length === 1 && blocks[0].type === 'text' && !blocks[0].cache_control;
  const content = onlyText ? (blocks[0] as MessagesTextBlock).text : blocks;
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    ...(blocks.length > 0 ? { content } : {}),
    ...(part.isError ? { is_error: true } : {}),
    ...cache(part),
  };
}

/** Thinking is replayed only to the provider that signed it; other reasoning cannot be verified upstream. */
function encodeReasoning(part: UnifiedReasoningPart): MessagesContentBlock | undefined {
  if (part.provider !== 'messages') return undefined;
  if (part.redactedData) return { type: 'redacted_thinking', data: part.redactedData };
  if (part.signature) return { type: 'thinking', thinking: part.text, signature: part.signature };
  return undefined;
}

function encodePart(
  part: UnifiedPart,
  role: UnifiedMessage['role'],
  path: string,
  warnings: string[],
  ids: ToolIds,
): MessagesContentBlock | undefined {
  switch (part.type) {
    case 'text':
      return textBlock(part.text, part);
    case 'reasoning':
      return role === 'assistant' ? encodeReasoning(part) : undefined;
    case 'tool_call':
      if (role !== 'assistant') throw invalid(path, 'tool calls are only allowed in assistant messages');
      return {
        type: 'tool_use',
        id: ids.call(part.id),
        name: part.name,
        input: parseToolCallArguments(part.arguments, () => warnings.push(`${path}.arguments: not a JSON object, sent as {}`), `${path}.arguments`),
        ...cache(part),
      };
    case 'tool_result':
      // Encoded by encodeMessagesTurns, which pairs it with its call.
      throw invalid(path, 'tool results are not allowed in assistant messages');
    default:
      if (role === 'assistant') {
        // Messages assistant turns cannot hold media (e.g. an image a Gemini image model generated earlier).
        warnings.push(`${path}: ${part.type} in an assistant message dropped`);
        return undefined;
      }
      return encodeMessagesMedia(part, path);
  }
}

/** A result without its call (see encodeMessagesTurns) as user text naming the function, and the media it returned. */
function orphanResultBlocks(part: UnifiedToolResultPart, path: string): MessagesContentBlock[] {
  const text = textBlock(orphanToolResultText(part), part);
  const media = part.content.flatMap((inner, k) => (inner.type === 'text' ? [] : [encodeMessagesMedia(inner, `${path}.content[${k}]`)]));
  return text ? [text, ...media] : media;
}

/** Tool results must open the user turn that follows the assistant's tool_use turn. */
function toolResultsFirst(blocks: MessagesContentBlock[]): MessagesContentBlock[] {
  const results = blocks.filter((b) => b.type === 'tool_result');
  return results.length === 0 ? blocks : [...results, ...blocks.filter((b) => b.type !== 'tool_result')];
}

/** A final assistant turn (prefill) may not end with whitespace. */
function trimPrefill(turns: MessagesTurn[]): MessagesTurn[] {
  const last = turns.at(-1);
  const lastBlock = last?.content.at(-1);
  if (!last || last.role !== 'assistant' || lastBlock?.type !== 'text') return turns;
  const text = lastBlock.text.trimEnd();
  const content = text ? [...last.content.slice(0, -1), { ...lastBlock, text }] : last.content.slice(0, -1);
  return content.length > 0 ? [...turns.slice(0, -1), { role: 'assistant', content }] : turns.slice(0, -1);
}

/**
 * Unified messages → alternating Messages turns. System messages after the start become user text;
 * tool messages become tool_result blocks at the head of the next user turn; consecutive turns of
 * one role are merged; empty turns are left out.
 */
export function encodeMessagesTurns(messages: UnifiedMessage[], warnings: string[]): MessagesTurn[] {
  const turns: MessagesTurn[] = [];
  const ids = createToolIds();
  /** The tool_use ids of the last assistant turn: only those may have a tool_result in the user turn after it. */
  let answerable = new Set<string>();
  messages.forEach((message, i) => {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content = message.content.flatMap((part, j): MessagesContentBlock[] => {
      const path = `messages[${i}].content[${j}]`;
      // Anthropic refuses a tool_result whose tool_use is not in the previous message (a client's window cut it off, a
      // Gemini client's response naming no call): it goes as user text naming the function, as on chat upstreams.
      if (part.type === 'tool_result' && role === 'user') {
        const toolUseId = ids.result(part.toolCallId, answerable);
        return answerable.has(toolUseId) ? [encodeToolResult(part, path, toolUseId)] : orphanResultBlocks(part, path);
      }
      const block = encodePart(part, message.role, path, warnings, ids);
      return block === undefined ? [] : [block];
    });
    if (role === 'assistant' && content.length > 0) {
      const calls = content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
      if (turns.at(-1)?.role === 'assistant') for (const id of calls) answerable.add(id);
      else answerable = new Set(calls);
    }
    if (content.length === 0) {
      // A user message of blank text only cannot be sent. After a user turn (Codex's environment context, a tool
      // result) it is left out like any blank block; after the assistant's answer, or at the start, leaving it out
      // would change the conversation (the answer would end the request: a prefill Claude continues, or refuses).
      // Unified messages do not know the client's own field names, so the message says where in words.
      if (message.role === 'user' && message.content.length > 0 && turns.at(-1)?.role !== 'user') {
        throw new GatewayError('GW_INVALID_REQUEST', `a user message ${turns.length === 0 ? 'at the start of the conversation' : 'after the assistant\'s answer'} holds no text but whitespace, which Anthropic refuses; send the user's words`);
      }
      return;
    }
    const previous = turns.at(-1);
    if (previous && previous.role === role) previous.content.push(...content);
    else turns.push({ role, content });
  });
  const ordered = turns.map((turn) => (turn.role === 'user' ? { role: turn.role, content: toolResultsFirst(turn.content) } : turn));
  return trimPrefill(ordered);
}
