import { idCore } from './to-prefixed-id';

/**
 * One key for a tool call whatever client format's shape its id came back in: the encoders give a call `id` as it
 * is to chat completions and Responses clients and as `toolu_<id>` to Messages clients (see toPrefixedId), which
 * also drops characters outside `[A-Za-z0-9_-]`; so `call_a.b`, `toolu_ab` and `ab` are the same call.
 */
export function callIdKey(id: string): string {
  return `call_${idCore(id)}`;
}
