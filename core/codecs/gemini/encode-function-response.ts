import { parseToolJson } from '../../text/exact-json-numbers';
import type { UnifiedToolResultPart } from '../../unified/unified-request';
import { isJsonTextTooDeep, MAX_JSON_DEPTH } from '../../validation/scan-json-bytes';
import { isPlainObject } from '../shared/is-plain-object';

/**
 * A tool result's text → `functionResponse.response`, which must be an object: JSON object text is
 * sent as that object (what the Gemini decoder produced from one), anything else is wrapped as
 * `{result: <text>}`, or `{error: <text>}` for a failed call. Several text blocks are lines apart, as chat's tool
 * message has them (run together, one block's last word met the next one's first). JSON nested deeper than
 * MAX_JSON_DEPTH stays text: sent on as JSON, it overflowed the call stack.
 */
export function encodeFunctionResponse(part: UnifiedToolResultPart): Record<string, unknown> {
  const text = part.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  if (!part.isError && !isJsonTextTooDeep(text, MAX_JSON_DEPTH)) {
    try {
      const parsed = parseToolJson(text, 'whole');
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // not JSON: wrapped below
    }
  }
  return part.isError ? { error: text } : { result: text };
}
