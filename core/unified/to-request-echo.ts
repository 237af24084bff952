import type { RequestEcho, UnifiedRequest } from './unified-request';

/** The request without its conversation (see RequestEcho): a shallow copy, the settings shared. */
export function toRequestEcho(request: UnifiedRequest): RequestEcho {
  const { messages: _conversation, ...echo } = request;
  return echo;
}
