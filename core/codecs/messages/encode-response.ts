import type { RequestEcho } from '../../unified/unified-request';
import type { UnifiedResponse } from '../../unified/unified-response';
import { clientFunctionNames } from '../shared/portable-function-names';
import { toPrefixedId } from '../shared/to-prefixed-id';
import { encodeMessagesOutputBlock } from './encode-messages-output-block';
import { encodeMessagesStopReason } from './encode-messages-stop-reason';
import { encodeMessagesUsage } from './encode-messages-usage';
import { encodeWebSearchBlocks, encodeWebSearchCitation } from './encode-messages-web-search';
import type { MessagesResponse, MessagesResponseBlock } from './messages-types';

/** Unified response → the Messages `message` object a Messages client parses. */
export function encodeMessagesResponse(response: UnifiedResponse, request: RequestEcho): MessagesResponse {
  const showThoughts = request.reasoning?.includeThoughts !== false;
  const clientName = clientFunctionNames(request);
  return {
    id: toPrefixedId('msg_', response.id),
    type: 'message',
    role: 'assistant',
    model: response.model || request.model,
    content: [...(response.webSearches ?? []).flatMap((search) => encodeWebSearchBlocks(search)), ...withCitations(response, showThoughts, clientName)],
    stop_reason: encodeMessagesStopReason(response.finishReason, response.stopSequence, response.content.some((part) => part.type === 'text' && part.refusal === true)),
    stop_sequence: response.stopSequence ?? null,
    usage: encodeMessagesUsage(response.usage),
  };
}

/**
 * The answer's blocks; a text block lists the web sources that cite text within it (as Anthropic's web search gives
 * them), their offsets counted over the answer's text.
 */
function withCitations(response: UnifiedResponse, showThoughts: boolean, clientName: (name: string) => string): MessagesResponseBlock[] {
  const text = response.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const citations = response.citations ?? [];
  let offset = 0;
  return response.content.flatMap((part): MessagesResponseBlock[] => {
    const block = encodeMessagesOutputBlock(part, showThoughts, clientName);
    if (part.type !== 'text') return block ? [block] : [];
    const start = offset;
    offset += part.text.length;
    if (block?.type !== 'text') return block ? [block] : [];
    const cited = citations.filter((citation) => citation.start < offset && citation.end > start);
    return [cited.length > 0 ? { ...block, citations: cited.map((citation) => encodeWebSearchCitation(citation, text)) } : block];
  });
}
