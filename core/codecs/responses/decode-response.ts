import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedReasoningPart } from '../../unified/unified-request';
import type { UnifiedOutputPart, UnifiedResponse } from '../../unified/unified-response';
import { decodeOpenAiError } from '../shared/decode-openai-error';
import { decodeResponsesUsage } from './decode-responses-usage';
import { mapResponsesStatus } from './map-responses-status';
import { idOrMint } from '../shared/mint-id';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function texts(list: unknown, key: string): string[] {
  return Array.isArray(list) ? list.flatMap((entry) => (isRecord(entry) && typeof entry[key] === 'string' ? [entry[key] as string] : [])) : [];
}

/** One Responses output item → unified parts (server-side tool records carry nothing to forward). */
export function decodeResponsesOutputItem(item: unknown): UnifiedOutputPart[] {
  if (!isRecord(item)) return [];
  switch (item.type) {
    case 'message': {
      const parts = Array.isArray(item.content) ? item.content : [];
      return parts.flatMap((part): UnifiedOutputPart[] => {
        if (!isRecord(part)) return [];
        const refusal = part.type === 'refusal';
        const text = refusal ? asString(part.refusal) : asString(part.text);
        return text ? [refusal ? { type: 'text', text, refusal } : { type: 'text', text }] : [];
      });
    }
    case 'function_call':
      return [{ type: 'tool_call', id: idOrMint(asString(item.call_id) || item.id, 'call_'), name: asString(item.name) ?? '', arguments: asString(item.arguments) ?? '' }];
    case 'custom_tool_call':
      return [{ type: 'tool_call', id: idOrMint(item.call_id, 'call_'), name: asString(item.name) ?? '', arguments: JSON.stringify({ input: asString(item.input) ?? '' }) }];
    case 'reasoning': {
      const summary = texts(item.summary, 'text');
      const text = summary.length > 0 ? summary.join('\n\n') : texts(item.content, 'text').join('');
      const part: UnifiedReasoningPart = { type: 'reasoning', text, provider: 'responses' };
      const id = asString(item.id);
      if (id) part.id = id;
      const encrypted = asString(item.encrypted_content);
      if (encrypted) part.redactedData = encrypted;
      return text || encrypted ? [part] : [];
    }
    default:
      return [];
  }
}

/** Upstream `response` object → unified response. A `failed` response is an upstream error. */
export function decodeResponsesResponse(body: unknown): UnifiedResponse {
  if (!isRecord(body)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream response: body is not a JSON object');
  if (isRecord(body.error)) throw decodeOpenAiError(body.error);
  if (!Array.isArray(body.output)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream response: output is missing');
  if (body.status === 'failed') throw decodeOpenAiError({ message: 'upstream response failed' });
  const content = body.output.flatMap(decodeResponsesOutputItem);
  const incomplete = isRecord(body.incomplete_details) ? body.incomplete_details.reason : undefined;
  return {
    id: idOrMint(body.id, 'resp_'),
    model: asString(body.model) ?? '',
    created: typeof body.created_at === 'number' ? body.created_at : Math.floor(Date.now() / 1000),
    content,
    finishReason: mapResponsesStatus(body.status, incomplete, content.some((p) => p.type === 'tool_call')),
    usage: decodeResponsesUsage(body.usage),
  };
}
