import type { UnifiedToolResultPart } from '../../unified/unified-request';
import { isPlainObject } from '../shared/is-plain-object';

/**
 * A tool result's text → `functionResponse.response`, which must be an object: JSON object text is
 * sent as that object (what the Gemini decoder produced from one), anything else is wrapped as
 * `{result: <text>}`, or `{error: <text>}` for a failed call. Several text blocks are lines apart, as chat's tool
 * message has them (run together, one block's last word met the next one's first).
 */
export function encodeFunctionResponse(part: UnifiedToolResultPart): Record<string, unknown> {
  const text = part.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  if (!part.isError) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // not JSON: wrapped below
    }
  }
  return part.isError ? { error: text } : { result: text };
}
