import { isPlainObject } from '../shared/is-plain-object';
import type { GeminiErrorBody } from './gemini-types';

/**
 * Whether a parsed body (or stream chunk) is an error envelope: google.rpc.Status, or the string some Gemini-compatible
 * proxies send instead (a 200 `{"error": "…"}` was answered as an empty success).
 */
export function isGeminiErrorBody(value: unknown): value is GeminiErrorBody {
  return isPlainObject(value) && (isPlainObject(value.error) || typeof value.error === 'string');
}
