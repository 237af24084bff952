import type { RequestEcho } from '../../unified/unified-request';
import { isPlainObject } from '../shared/is-plain-object';
import { encodeResponsesTextFormat } from './encode-responses-text-format';
import { encodeResponsesToolChoice, encodeResponsesTools } from './encode-responses-tools';
import type { ResponsesObject, ResponsesOutputItem, ResponsesStatus, ResponsesUsage } from './responses-types';

export interface ResponsesObjectFields {
  id: string;
  createdAt: number;
  model: string;
  status: ResponsesStatus;
  completedAt: number | null;
  incompleteDetails: { reason: string } | null;
  output: ResponsesOutputItem[];
  usage: ResponsesUsage | null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * The full `response` object (fixtures openai-responses/response-basic.json), with the request's
 * settings echoed the way the API echoes them. The gateway stores nothing, so `store` is false.
 */
export function buildResponsesObject(fields: ResponsesObjectFields, request: RequestEcho): ResponsesObject {
  const ext = request.extensions?.responses ?? {};
  const originalReasoning = typeof ext.reasoning === 'object' && ext.reasoning !== null ? (ext.reasoning as Record<string, unknown>) : {};
  const originalText = typeof ext.text === 'object' && ext.text !== null ? (ext.text as Record<string, unknown>) : {};
  const toolChoice = request.toolChoice;
  return {
    id: fields.id,
    object: 'response',
    created_at: fields.createdAt,
    status: fields.status,
    completed_at: fields.completedAt,
    error: null,
    incomplete_details: fields.incompleteDetails,
    // As sent (decoding may have joined leading developer messages to it).
    instructions: 'instructions' in ext ? stringOrNull(ext.instructions) : request.system.length > 0 ? request.system.join('\n\n') : null,
    max_output_tokens: request.maxTokens ?? null,
    model: fields.model || request.model,
    output: fields.output,
    parallel_tool_calls: request.parallelToolCalls ?? true,
    previous_response_id: stringOrNull(ext.previous_response_id),
    reasoning: {
      // As the client wrote it: `none` (thinking off) has no unified effort.
      effort: stringOrNull(originalReasoning.effort) ?? request.reasoning?.effort ?? null,
      summary: stringOrNull(originalReasoning.summary) ?? (request.reasoning?.includeThoughts ? 'auto' : null),
    },
    store: false,
    temperature: request.temperature ?? 1,
    text: { ...originalText, format: request.responseFormat ? encodeResponsesTextFormat(request.responseFormat) : { type: 'text' } },
    tool_choice: isPlainObject(ext.tool_choice) ? ext.tool_choice : toolChoice === undefined ? 'auto' : encodeResponsesToolChoice(toolChoice, request),
    tools: encodeResponsesTools(request),
    top_p: request.topP ?? 1,
    truncation: ext.truncation === 'auto' ? 'auto' : 'disabled',
    usage: fields.usage,
    // Not a `safety_identifier` taken as the end-user id: the client sent no `user`.
    user: request.user !== undefined && request.user !== ext.safety_identifier ? request.user : null,
    metadata: typeof ext.metadata === 'object' && ext.metadata !== null ? (ext.metadata as Record<string, unknown>) : {},
    prompt_cache_key: stringOrNull(ext.prompt_cache_key),
    // The tier the answer was served at, which the API reports whatever was asked: a translation is served at the default.
    service_tier: 'default',
  };
}
