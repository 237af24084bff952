import type { RequestEcho } from '../../unified/unified-request';
import type { UnifiedResponse } from '../../unified/unified-response';
import { toPrefixedId } from '../shared/to-prefixed-id';
import { buildResponsesObject } from './build-responses-object';
import { encodeResponsesOutput } from './encode-responses-output';
import { encodeResponsesUsage } from './encode-responses-usage';
import { encodeResponsesStatus } from './map-responses-status';
import type { ResponsesObject, ResponsesOutputItem } from './responses-types';

/** An answer that ended incomplete (the token limit) cut its last item short: that item is `incomplete` too, as OpenAI marks it. */
function markCutShort(output: ResponsesOutputItem[], status: 'completed' | 'incomplete'): ResponsesOutputItem[] {
  const last = output.at(-1);
  if (status === 'incomplete' && (last?.type === 'message' || last?.type === 'function_call')) output[output.length - 1] = { ...last, status: 'incomplete' };
  return output;
}

/** Unified response → Responses `response` object (status completed, or incomplete with its reason). */
export function encodeResponsesResponse(response: UnifiedResponse, request: RequestEcho): ResponsesObject {
  const id = toPrefixedId('resp_', response.id);
  const { status, incompleteDetails } = encodeResponsesStatus(response.finishReason);
  return buildResponsesObject(
    {
      id,
      createdAt: response.created,
      model: response.model,
      status,
      // The unified response has one timestamp; a non-streamed answer is complete when it is returned.
      completedAt: response.created,
      incompleteDetails,
      output: markCutShort(encodeResponsesOutput(response.content, id, request, response), status),
      usage: encodeResponsesUsage(response.usage),
    },
    request,
  );
}
