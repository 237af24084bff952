import type { RequestEcho } from '../../unified/unified-request';
import type { UnifiedResponse } from '../../unified/unified-response';
import { clientFunctionNames } from '../shared/portable-function-names';
import { toPrefixedId } from '../shared/to-prefixed-id';
import { encodeMessagesOutputBlock } from './encode-messages-output-block';
import { encodeMessagesStopReason } from './encode-messages-stop-reason';
import { encodeMessagesUsage } from './encode-messages-usage';
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
    content: response.content
      .map((part) => encodeMessagesOutputBlock(part, showThoughts, clientName))
      .filter((block): block is MessagesResponseBlock => block !== undefined),
    stop_reason: encodeMessagesStopReason(response.finishReason, response.stopSequence),
    stop_sequence: response.stopSequence ?? null,
    usage: encodeMessagesUsage(response.usage),
  };
}
