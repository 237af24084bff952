import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedCitation, UnifiedOutputPart, UnifiedResponse, UnifiedWebSearch } from '../../unified/unified-response';
import { decodeMessagesError } from '../shared/decode-messages-error';
import { decodeMessagesUsage } from './decode-messages-usage';
import { messagesBlockCitations, messagesWebSearchCall, messagesWebSearchResults } from './decode-messages-web-search';
import { mapMessagesFinishReason } from './map-messages-finish-reason';
import { renderCodeExecutionBlock } from './render-code-execution-block';
import type { MessagesUsage } from './messages-types';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function decodeBlock(block: unknown): UnifiedOutputPart | undefined {
  if (!isObject(block)) return undefined;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? { type: 'text', text: block.text } : undefined;
    case 'thinking':
      return {
        type: 'reasoning',
        text: typeof block.thinking === 'string' ? block.thinking : '',
        ...(typeof block.signature === 'string' && block.signature ? { signature: block.signature } : {}),
        provider: 'messages',
      };
    case 'redacted_thinking':
      return typeof block.data === 'string' ? { type: 'reasoning', text: '', redactedData: block.data, provider: 'messages' } : undefined;
    case 'tool_use':
      return {
        type: 'tool_call',
        id: String(block.id ?? ''),
        name: String(block.name ?? ''),
        arguments: JSON.stringify(block.input ?? {}),
      };
    default: {
      // Code Claude ran, as text; server_tool_use / web_search_tool_result…: searches, read by readWebSearch.
      const code = renderCodeExecutionBlock(block);
      return code !== undefined ? { type: 'text', text: code } : undefined;
    }
  }
}

/** The web searches the upstream ran and the sources its text blocks cite (offsets into the answer's text). */
function readWebSearch(blocks: unknown[]): Pick<UnifiedResponse, 'citations' | 'webSearches'> {
  const citations: UnifiedCitation[] = [];
  const searches: UnifiedWebSearch[] = [];
  let offset = 0;
  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') {
      citations.push(...messagesBlockCitations(block.citations, offset, offset + block.text.length));
      offset += block.text.length;
      continue;
    }
    // Code Claude ran is answer text too (decodeBlock): the citations after it count it.
    offset += renderCodeExecutionBlock(block)?.length ?? 0;
    const call = messagesWebSearchCall(block);
    if (call) searches.push(call);
    const results = messagesWebSearchResults(block);
    const answered = results && searches.find((search) => search.id === results.searchId);
    if (answered) {
      answered.sources.push(...results.sources);
      if (results.failed) answered.failed = true;
    }
  }
  return { ...(citations.length > 0 ? { citations } : {}), ...(searches.length > 0 ? { webSearches: searches } : {}) };
}

/**
 * A Messages response body → unified response. An error envelope throws the upstream error; a body
 * without a `content` array is GW_UPSTREAM_BAD_RESPONSE. `created` is the arrival time (Anthropic sends none).
 */
export function decodeMessagesResponse(body: unknown): UnifiedResponse {
  if (isObject(body) && body.type === 'error') throw decodeMessagesError(body);
  if (!isObject(body) || !Array.isArray(body.content)) {
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream answered a Messages body without a content array');
  }
  return {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : '',
    created: Math.floor(Date.now() / 1000),
    content: body.content.map(decodeBlock).filter((part): part is UnifiedOutputPart => part !== undefined),
    ...readWebSearch(body.content),
    finishReason: mapMessagesFinishReason(typeof body.stop_reason === 'string' ? body.stop_reason : undefined),
    ...(typeof body.stop_sequence === 'string' ? { stopSequence: body.stop_sequence } : {}),
    usage: decodeMessagesUsage(isObject(body.usage) ? (body.usage as MessagesUsage) : undefined),
  };
}
