import type { UnifiedResponseFormat } from '../../unified/unified-request';

/** Unified response format → Responses `text.format`. */
export function encodeResponsesTextFormat(format: UnifiedResponseFormat): Record<string, unknown> {
  if (format.type !== 'json_schema') return { type: format.type };
  const out: Record<string, unknown> = { type: 'json_schema', name: format.name ?? 'response', schema: format.schema };
  if (format.strict !== undefined) out.strict = format.strict;
  return out;
}
