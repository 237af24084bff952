import { toPrefixedId } from './to-prefixed-id';

/**
 * One key for a tool call whatever client format's shape its id came back in: the encoders give a call `id` as it
 * is to chat completions and Responses clients and as `toolu_<id>` to Messages clients (see toPrefixedId), so
 * `call_abc` and `toolu_abc` are the same call.
 */
export function callIdKey(id: string): string {
  return toPrefixedId('call_', id);
}
