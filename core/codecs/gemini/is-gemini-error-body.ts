import { isPlainObject } from '../shared/is-plain-object';
import type { GeminiErrorBody } from './gemini-types';

/** Whether a parsed body (or stream chunk) is a google.rpc.Status error envelope. */
export function isGeminiErrorBody(value: unknown): value is GeminiErrorBody {
  return isPlainObject(value) && isPlainObject(value.error);
}
