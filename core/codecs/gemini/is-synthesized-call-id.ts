/**
 * Ids the Gemini decoders make up (`call_<n>`, `call_<8 hex>_<n>`), also in the shape Messages clients get them back
 * in (`toolu_…`, see toPrefixedId): Gemini never saw them, so they are not echoed upstream.
 */
export function isSynthesizedCallId(id: string): boolean {
  return /^(?:call_|toolu_)(?:[0-9a-f]{8}_)?\d+$/.test(id);
}
