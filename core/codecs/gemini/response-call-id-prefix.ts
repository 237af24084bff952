import { fnv1aHex } from './fnv1a-hex';

/**
 * The id prefix for calls in one upstream response: `call_<fingerprint of the response id>_`, so that
 * calls of different turns never share an id (`call_0` in every turn would confuse clients that key
 * tool results by id, and Anthropic rejects repeated tool_use ids).
 */
export function responseCallIdPrefix(responseId: string): string {
  return `call_${fnv1aHex(responseId)}_`;
}
