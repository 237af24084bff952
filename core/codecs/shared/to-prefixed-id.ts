/** Id prefixes of the wire formats the gateway speaks (`chatcmpl-…`, `resp_…`, `msg_…`, `toolu_…`, …). */
const KNOWN_PREFIX = /^(?:chatcmpl-|resp_|msg_|fc_|call_|toolu_|srvtoolu_|rs_|ctc_)/;

/**
 * An id in the target's shape, derived deterministically from another format's id:
 * kept when it already has `prefix`, else `prefix` + the id without its own known prefix
 * (characters outside `[A-Za-z0-9_-]` removed). `suffix` tells apart several ids derived from one.
 */
export function toPrefixedId(prefix: string, id: string, suffix?: string | number): string {
  const tail = suffix === undefined ? '' : `_${suffix}`;
  if (id.startsWith(prefix)) return `${id}${tail}`;
  return `${prefix}${idCore(id)}${tail}`;
}

/** The part of an id that every prefixed form of it keeps: without its known prefix and characters outside `[A-Za-z0-9_-]`. */
export function idCore(id: string): string {
  return id.replace(KNOWN_PREFIX, '').replace(/[^A-Za-z0-9_-]/g, '') || 'gateway';
}
