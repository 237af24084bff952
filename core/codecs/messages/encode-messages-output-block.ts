import type { UnifiedOutputPart } from '../../unified/unified-response';
import { parseToolCallArguments } from '../shared/parse-tool-call-arguments';
import { toPrefixedId } from '../shared/to-prefixed-id';
import type { MessagesResponseBlock } from './messages-types';


/**
 * One unified output part → a Messages response block, or undefined when it has nothing to show.
 * Reasoning from other providers is shown as a thinking block without a signature (it cannot be
 * replayed to Anthropic anyway); opaque data of other providers is not exposed.
 */
export function encodeMessagesOutputBlock(part: UnifiedOutputPart, showThoughts: boolean, clientName: (name: string) => string = (name) => name): MessagesResponseBlock | undefined {
  switch (part.type) {
    case 'text':
      return part.text === '' ? undefined : { type: 'text', text: part.text };
    case 'reasoning':
      if (part.provider === 'messages') {
        if (part.redactedData) return { type: 'redacted_thinking', data: part.redactedData };
        return { type: 'thinking', thinking: part.text, signature: part.signature ?? '' };
      }
      return showThoughts && part.text !== '' ? { type: 'thinking', thinking: part.text, signature: '' } : undefined;
    case 'tool_call':
      return { type: 'tool_use', id: toPrefixedId('toolu_', part.id), name: clientName(part.name), input: parseToolCallArguments(part.arguments) };
    case 'image':
      return part.source.kind === 'base64'
        ? { type: 'image', source: { type: 'base64', media_type: part.source.mediaType, data: part.source.data } }
        : undefined;
    default:
      return undefined;
  }
}
